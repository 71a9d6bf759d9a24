package baseline

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// TrustOnFirstUse returns the baseline cur is to be judged against: the
// stored one of cur's identity (or its label's, see [Read]) when there is
// one. When there is none, cur itself is written as the baseline (trust on
// first use) and returned with recorded true; it then shows no drift.
//
// The first write is safe against a concurrent one (two UIs, a UI and a
// check): the file is written whole under a temporary name and linked into
// place, so when another writer got there first its baseline is kept, and
// read and returned instead (recorded false).
func TrustOnFirstUse(dir string, cur *Baseline) (old *Baseline, recorded bool, err error) {
	old, err = Read(dir, cur.Identity)
	if !errors.Is(err, ErrNotFound) {
		return old, false, err
	}
	created, err := create(dir, cur)
	if err != nil {
		return nil, false, err
	}
	if !created {
		old, err = Read(dir, cur.Identity)
		return old, false, err
	}
	return cur, true, nil
}

// create writes b to its path unless a file is there already (mode 0600,
// directory 0700); created reports whether it wrote.
func create(dir string, b *Baseline) (created bool, err error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return false, fmt.Errorf("write baseline: %w", err)
	}
	data, err := json.MarshalIndent(b, "", "  ")
	if err != nil {
		return false, fmt.Errorf("write baseline: %w", err)
	}
	tmp, err := os.CreateTemp(dir, ".tofu-*.json")
	if err != nil {
		return false, fmt.Errorf("write baseline: %w", err)
	}
	defer os.Remove(tmp.Name())
	_, err = tmp.Write(append(data, '\n'))
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return false, fmt.Errorf("write baseline: %w", err)
	}
	if err := os.Chmod(tmp.Name(), 0o600); err != nil {
		return false, fmt.Errorf("write baseline: %w", err)
	}
	p := Path(dir, b.Identity)
	if err := os.Link(tmp.Name(), p); err != nil {
		if errors.Is(err, os.ErrExist) {
			return false, nil
		}
		return false, fmt.Errorf("write baseline %s: %w", filepath.Base(p), err)
	}
	return true, nil
}
