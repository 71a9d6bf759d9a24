package wrap

import (
	"path"
	"path/filepath"
	"strings"
)

// TransientBinary says why bin, the running mcpward, is no binary for a
// client's config to start: one that `go run` or `go test` built in a
// temporary directory or the Go build cache, which is gone (or replaced)
// after the run. It is "" for a binary that stays where it is.
func TransientBinary(bin string, env Env) string {
	clean := filepath.ToSlash(filepath.Clean(bin))
	if c := goCache(env); c != "" && within(clean, c) {
		return "it lives in the Go build cache (" + c + ")"
	}
	for _, dir := range strings.Split(clean, "/") {
		// go run's work directory: go-build<digits> wherever TMPDIR is.
		if len(dir) > len("go-build") && strings.HasPrefix(dir, "go-build") {
			return "it is a binary 'go run' built in a temporary directory"
		}
	}
	for _, t := range tempDirs(env) {
		if within(clean, t) {
			return "it lives in a temporary directory (" + t + ")"
		}
	}
	return ""
}

// within reports whether p is dir or below it (both slash-separated).
func within(p, dir string) bool {
	dir = strings.TrimSuffix(filepath.ToSlash(filepath.Clean(dir)), "/")
	return dir != "" && dir != "." && (p == dir || strings.HasPrefix(p, dir+"/"))
}

// goCache is GOCACHE as the go command defaults it ("off" means none).
func goCache(env Env) string {
	if c := env.get("GOCACHE"); c != "" {
		if c == "off" {
			return ""
		}
		return c
	}
	var base string
	switch env.GOOS {
	case "windows":
		base = env.get("LocalAppData")
	case "darwin", "ios":
		if env.Home != "" {
			base = path.Join(filepath.ToSlash(env.Home), "Library/Caches")
		}
	default:
		base = env.get("XDG_CACHE_HOME")
		if base == "" && env.Home != "" {
			base = path.Join(filepath.ToSlash(env.Home), ".cache")
		}
	}
	if base == "" {
		return ""
	}
	return path.Join(filepath.ToSlash(base), "go-build")
}

// tempDirs are the temporary directories of os.TempDir, by environment.
func tempDirs(env Env) []string {
	if env.GOOS == "windows" {
		var dirs []string
		for _, k := range []string{"TMP", "TEMP"} {
			if d := env.get(k); d != "" {
				dirs = append(dirs, d)
			}
		}
		return dirs
	}
	dirs := []string{"/tmp", "/var/tmp"}
	if d := env.get("TMPDIR"); d != "" {
		dirs = append(dirs, d)
	}
	return dirs
}
