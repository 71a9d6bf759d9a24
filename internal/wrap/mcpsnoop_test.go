package wrap

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// mcpsnoop's wrap of the basic Claude Desktop config: the entry's keys in
// alphabetical order, "args": ["--", command, args…] (reference/mcpsnoop.md
// §2.2).
const (
	snoopOriginal = `{
  "mcpServers": {
    "weather": {
      "command": "npx",
      "args": ["-y", "@acme/weather-server"],
      "env": {"WEATHER_API_KEY": "abc"}
    },
    "files": {"command": "/opt/files/server", "args": ["--root", "/home/u"]}
  }
}
`
	snoopWrapped = `{
  "mcpServers": {
    "weather": {
      "args": [
        "--",
        "npx",
        "-y",
        "@acme/weather-server"
      ],
      "command": "/home/u/go/bin/mcpsnoop",
      "env": {
        "WEATHER_API_KEY": "abc"
      }
    },
    "files": {"command": "/opt/files/server", "args": ["--root", "/home/u"]}
  }
}
`
)

var snoopTarget = Target{Containers: [][]string{{"mcpServers"}}}

func snoopDoc(args string) []byte {
	return []byte(strings.Replace(snoopWrapped, `[
        "--",
        "npx",
        "-y",
        "@acme/weather-server"
      ]`, args, 1))
}

// Wrap does not wrap mcpsnoop's shim: the entry runs through mcpward
// instead, with the flags mcpsnoop had (hand-added) after wrap's own.
func TestWrapMcpsnoopEntry(t *testing.T) {
	spec := Spec{Mcpward: "/usr/local/bin/mcpward", Flags: []string{"--label", "weather"}}
	tests := []struct {
		name, args, wantArgs, wantErr string
	}{
		{name: "as mcpsnoop wrote it", args: `["--", "npx", "-y", "@acme/weather-server"]`,
			wantArgs: `["proxy", "--label", "weather", "--", "npx", "-y", "@acme/weather-server"]`},
		{name: "flags by hand", args: `["--label", "wx", "--redact-secrets", "--history-limit", "5", "--redact-key=token", "--", "npx", "-y", "@acme/weather-server"]`,
			wantArgs: `["proxy", "--label", "weather", "--redact-secrets", "--redact-key=token", "--", "npx", "-y", "@acme/weather-server"]`},
		{name: "no dash dash", args: `["--no-trace", "npx", "-y", "@acme/weather-server"]`,
			wantArgs: `["proxy", "--label", "weather", "--no-trace", "--", "npx", "-y", "@acme/weather-server"]`},
		{name: "redaction mcpward cannot take", args: `["--redact-path", "$.[", "--", "npx"]`, wantErr: `a redaction mcpward cannot take: redact path "$.["`},
		{name: "unknown flag", args: `["--theme", "dark", "--", "npx"]`, wantErr: `runs through mcpsnoop with --theme, which mcpward proxy does not take`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := snoopDoc(tt.args)
			out, err := Wrap(doc, snoopTarget, "weather", spec)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) || string(out) != string(doc) {
					t.Errorf("Wrap() error = %v, want %q and no change", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			want := strings.Replace(strings.Replace(string(doc), tt.args, tt.wantArgs, 1), "/home/u/go/bin/mcpsnoop", "/usr/local/bin/mcpward", 1)
			if d := cmp.Diff(want, string(out)); d != "" {
				t.Errorf("Wrap() mismatch (-want +got):\n%s", d)
			}
			if _, err := Wrap(out, snoopTarget, "weather", spec); !errors.Is(err, ErrAlreadyWrapped) {
				t.Errorf("Wrap(again) error = %v, want ErrAlreadyWrapped", err)
			}
			// Unwrap gives the server's own command back, not mcpsnoop,
			// even with the backup wrap took (mcpsnoop's entry).
			un, restored, err := Unwrap(out, doc, snoopTarget, "weather")
			if err != nil || restored {
				t.Fatalf("Unwrap() restored %v, %v", restored, err)
			}
			cl, _ := CommandLine(un, snoopTarget, "weather")
			if cl != "npx -y @acme/weather-server" {
				t.Errorf("unwrapped command = %s, want npx -y @acme/weather-server", cl)
			}
		})
	}
}

// Unwrap takes mcpsnoop's shim out: the command after its "--" (or after
// its flags) comes back; with mcpsnoop's backup and nothing else changed,
// the backup itself, byte for byte.
func TestUnwrapMcpsnoopEntry(t *testing.T) {
	doc := []byte(snoopWrapped)
	out, restored, err := Unwrap(doc, nil, snoopTarget, "weather")
	if err != nil || restored {
		t.Fatalf("Unwrap() restored %v, %v", restored, err)
	}
	if cl, _ := CommandLine(out, snoopTarget, "weather"); cl != "npx -y @acme/weather-server" {
		t.Errorf("unwrapped command = %s", cl)
	}
	if !sameJSON(out, []byte(snoopOriginal)) {
		t.Errorf("unwrapped file is not the original JSON:\n%s", out)
	}

	out, restored, err = Unwrap(doc, []byte(snoopOriginal), snoopTarget, "weather")
	if err != nil || !restored || string(out) != snoopOriginal {
		t.Errorf("Unwrap(with mcpsnoop's backup) = restored %v, %v:\n%s\nwant the backup byte for byte", restored, err, out)
	}

	// Another edit since the wrap: only the entry is restored.
	edited := []byte(strings.Replace(snoopWrapped, `"/home/u"]`, `"/srv"]`, 1))
	out, restored, err = Unwrap(edited, []byte(snoopOriginal), snoopTarget, "weather")
	if err != nil || restored || !strings.Contains(string(out), `"/srv"]`) {
		t.Errorf("Unwrap(edited) = restored %v, %v:\n%s\nwant the edit kept", restored, err, out)
	}

	// No "--", flags first: the first word is the server.
	out, _, err = Unwrap(snoopDoc(`["--label", "wx", "--no-trace", "python3", "server.py"]`), nil, snoopTarget, "weather")
	if cl, _ := CommandLine(out, snoopTarget, "weather"); err != nil || cl != "python3 server.py" {
		t.Errorf("Unwrap(flags, no --) = %s, %v", cl, err)
	}

	// mcpsnoop's subcommands are not a wrapped server.
	if _, _, err := Unwrap(snoopDoc(`["http", "--target", "http://127.0.0.1:9/"]`), nil, snoopTarget, "weather"); !errors.Is(err, ErrNotWrapped) {
		t.Errorf("Unwrap(mcpsnoop http) error = %v, want ErrNotWrapped", err)
	}
}
