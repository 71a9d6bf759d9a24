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

// A Foreign is the settings file of a tool mcpward replaces, read from the
// working directory when there is no .mcpward.toml there (or when named).
// This package knows only mcpward's format: the reader is internal/migrate's,
// handed in by the command that loads the settings.
type Foreign struct {
	// Name is the file's base name.
	Name string
	// Parse reads the file as [Parse] reads .mcpward.toml: a checked File
	// whose Notices name the .mcpward.toml equivalents, or an error marked
	// fault.Input.
	Parse func(name string, data []byte) (*File, error)
}

// foreignFor returns the Foreign that reads path, by its base name.
func foreignFor(path string, foreign []Foreign) (Foreign, bool) {
	for _, f := range foreign {
		if filepath.Base(path) == f.Name {
			return f, true
		}
	}
	return Foreign{}, false
}

// parserFor returns the parser of the file at path: Parse, or a Foreign's.
func parserFor(path string, foreign []Foreign) func(string, []byte) (*File, error) {
	if f, ok := foreignFor(path, foreign); ok {
		return f.Parse
	}
	return Parse
}

// Find returns the settings file to use: explicit (--config) if set,
// which must exist; else cwd/.mcpward.toml; else each foreign file in
// cwd (mcpsnoop's .mcpsnoop.toml); else <XDG_CONFIG_HOME or
// HOME/.config>/mcpward/config.toml. It returns "" when there is none.
// lookupEnv reads the environment.
func Find(explicit, cwd string, lookupEnv func(string) (string, bool), foreign []Foreign) (string, error) {
	if explicit != "" {
		if _, err := os.Stat(explicit); err != nil {
			return "", fault.Input(fmt.Errorf("config file %s: %w", explicit, unwrapPathError(err)))
		}
		return explicit, nil
	}
	var candidates []string
	if cwd != "" {
		candidates = append(candidates, filepath.Join(cwd, FileName))
		for _, f := range foreign {
			candidates = append(candidates, filepath.Join(cwd, f.Name))
		}
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
// File (whose Path is ""). A file named as one of foreign is read by its
// parser (mcpsnoop's .mcpsnoop.toml). Relative trace-file and hub-socket paths are
// resolved against the file's directory, so a file means the same thing
// from any working directory. A file found in cwd that is not trusted
// (see TrustEnv and Trust) loses the keys that reach past the state
// directory: File.Ignored names them.
func Load(explicit, cwd string, lookupEnv func(string) (string, bool), foreign []Foreign) (*File, error) {
	return LoadTrusting(explicit, cwd, lookupEnv, false, foreign)
}

// LoadTrusting is Load that trusts a file found in cwd when trustFound
// (the proxy's --trust-config).
func LoadTrusting(explicit, cwd string, lookupEnv func(string) (string, bool), trustFound bool, foreign []Foreign) (*File, error) {
	path, err := Find(explicit, cwd, lookupEnv, foreign)
	if err != nil || path == "" {
		return &File{}, err
	}
	data, err := readLimited(path)
	if err != nil {
		return nil, fault.Input(fmt.Errorf("config file %s: %w", path, unwrapPathError(err)))
	}
	f, err := parserFor(path, foreign)(path, data)
	if err != nil {
		return nil, err
	}
	_, isForeign := foreignFor(path, foreign)
	inCwd := cwd != "" && (path == filepath.Join(cwd, FileName) || isForeign && path == filepath.Join(cwd, filepath.Base(path)))
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
