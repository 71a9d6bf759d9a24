package settings

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/mcpward/mcpward/internal/fault"
)

// Find returns the settings file to use: explicit (--config) if set,
// which must exist; else cwd/.mcpward.toml; else mcpsnoop's
// cwd/.mcpsnoop.toml; else <XDG_CONFIG_HOME or HOME/.config>/mcpward/config.toml.
// It returns "" when there is none. lookupEnv reads the environment.
func Find(explicit, cwd string, lookupEnv func(string) (string, bool)) (string, error) {
	if explicit != "" {
		if _, err := os.Stat(explicit); err != nil {
			return "", fault.Input(fmt.Errorf("config file %s: %w", explicit, unwrapPathError(err)))
		}
		return explicit, nil
	}
	var candidates []string
	if cwd != "" {
		candidates = append(candidates, filepath.Join(cwd, FileName), filepath.Join(cwd, McpsnoopFileName))
	}
	if dir := userConfigDir(lookupEnv); dir != "" {
		candidates = append(candidates, filepath.Join(dir, "mcpward", "config.toml"))
	}
	for _, c := range candidates {
		fi, err := os.Stat(c)
		switch {
		case err == nil && fi.Mode().IsRegular():
			return c, nil
		case err == nil:
			return "", fault.Input(fmt.Errorf("config file %s: not a regular file", c))
		case !errors.Is(err, fs.ErrNotExist):
			return "", fault.Input(fmt.Errorf("config file %s: %w", c, unwrapPathError(err)))
		}
	}
	return "", nil
}

func userConfigDir(lookupEnv func(string) (string, bool)) string {
	if lookupEnv == nil {
		return ""
	}
	if v, ok := lookupEnv("XDG_CONFIG_HOME"); ok && filepath.IsAbs(v) {
		return v
	}
	if h, ok := lookupEnv("HOME"); ok && h != "" {
		return filepath.Join(h, ".config")
	}
	return ""
}

// Load finds and parses the settings file. With none it returns an empty
// File (whose Path is ""). A file named .mcpsnoop.toml is read in
// mcpsnoop's format (ParseMcpsnoop). Relative trace-file and hub-socket paths are
// resolved against the file's directory, so a file means the same thing
// from any working directory. A file found in cwd that is not trusted
// (see TrustEnv and Trust) loses the keys that reach past the state
// directory: File.Ignored names them.
func Load(explicit, cwd string, lookupEnv func(string) (string, bool)) (*File, error) {
	return LoadTrusting(explicit, cwd, lookupEnv, false)
}

// LoadTrusting is Load that trusts a file found in cwd when trustFound
// (the proxy's --trust-config).
func LoadTrusting(explicit, cwd string, lookupEnv func(string) (string, bool), trustFound bool) (*File, error) {
	path, err := Find(explicit, cwd, lookupEnv)
	if err != nil || path == "" {
		return &File{}, err
	}
	data, err := readLimited(path)
	if err != nil {
		return nil, fault.Input(fmt.Errorf("config file %s: %w", path, unwrapPathError(err)))
	}
	parse := Parse
	if filepath.Base(path) == McpsnoopFileName {
		parse = ParseMcpsnoop
	}
	f, err := parse(path, data)
	if err != nil {
		return nil, err
	}
	inCwd := cwd != "" && (path == filepath.Join(cwd, FileName) || path == filepath.Join(cwd, McpsnoopFileName))
	if explicit == "" && inCwd && !trustFound {
		abs, err := filepath.Abs(path)
		if err != nil {
			return nil, fault.Input(fmt.Errorf("config file %s: %w", path, err))
		}
		trusted := trustedByEnv(abs, lookupEnv)
		if !trusted {
			if trusted, err = isTrusted(abs, data, lookupEnv); err != nil {
				return nil, err
			}
		}
		if !trusted {
			f.Ignored = f.untrustedKeys()
		}
	}
	dir := filepath.Dir(path)
	for _, p := range []*string{&f.TraceFile, &f.HubSocket} {
		if *p != "" && !filepath.IsAbs(*p) {
			*p = filepath.Join(dir, *p)
		}
	}
	return f, nil
}

// readLimited reads at most one byte more than MaxFileSize, so a huge file
// (or a device) is refused by Parse without being read whole.
func readLimited(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, MaxFileSize+1))
}

// unwrapPathError drops the *PathError's repetition of the path.
func unwrapPathError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
