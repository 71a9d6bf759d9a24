package wrap

import (
	"errors"
	"fmt"
	"slices"
)

// A Launch is how a client starts one stdio server of its config: the
// command, its args and the environment the entry adds. A remote entry
// (url, or a type other than stdio) has Remote set and no command.
type Launch struct {
	Name    string
	Command string
	Args    []string
	// Env holds the entry's "env" members as K=V, sorted.
	Env    []string
	Remote bool
}

// Launches returns every server of doc as the client would start it, in
// name order. An entry that is not a readable stdio or remote entry is an
// error.
func Launches(doc []byte, t Target) ([]Launch, error) {
	names, err := Servers(doc, t)
	if err != nil {
		return nil, err
	}
	var out []Launch
	for _, name := range names {
		e, err := find(doc, t, name)
		if errors.Is(err, ErrRemote) {
			out = append(out, Launch{Name: name, Remote: true})
			continue
		}
		if err != nil {
			return nil, err
		}
		l := Launch{Name: name, Command: e.cmd, Args: e.argv}
		if env, _ := e.obj.get("env"); env != nil {
			if env.kind != '{' {
				return nil, fmt.Errorf("server %q: env is not an object", name)
			}
			for _, m := range env.members {
				v, ok := m.val.str(doc)
				if !ok {
					return nil, fmt.Errorf("server %q: env %q is not a string", name, m.key)
				}
				l.Env = append(l.Env, m.key+"="+v)
			}
			slices.Sort(l.Env)
		}
		out = append(out, l)
	}
	return out, nil
}
