package cmdutil

import (
	"strings"
	"testing"
	"time"

	"github.com/spf13/pflag"
)

func TestTimeoutVar(t *testing.T) {
	tests := []struct {
		arg     string
		want    time.Duration
		wantErr string
	}{
		{"", 10 * time.Second, ""},
		{"1500", 1500 * time.Millisecond, ""}, // snapgauge's form: milliseconds
		{"10000", 10 * time.Second, ""},
		{"2s", 2 * time.Second, ""},
		{"1m30s", 90 * time.Second, ""},
		{"250ms", 250 * time.Millisecond, ""},
		{"0", 0, ""}, // parsed; the command refuses a timeout that is not positive
		{"1.5", 0, "want a duration such as 500ms, 10s or 2m"},
		{"ten", 0, "want a duration such as 500ms, 10s or 2m"},
		{"99999999999999999", 0, "99999999999999999 milliseconds is too long"},
	}
	for _, tt := range tests {
		t.Run(tt.arg, func(t *testing.T) {
			fl := pflag.NewFlagSet("x", pflag.ContinueOnError)
			var d time.Duration
			TimeoutVar(fl, &d, "timeout", 10*time.Second, "per-request timeout")
			var args []string
			if tt.arg != "" {
				args = []string{"--timeout", tt.arg}
			}
			err := fl.Parse(args)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("Parse(%q) = %v, want error containing %q", tt.arg, err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if d != tt.want {
				t.Errorf("--timeout %s = %v, want %v", tt.arg, d, tt.want)
			}
		})
	}
}
