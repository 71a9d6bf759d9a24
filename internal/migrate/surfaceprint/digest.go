package surfaceprint

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/mcpward/mcpward/internal/migrate"
)

// Digest returns mcp-surfaceprint's surfaceDigest of a surface:
// "sha256:<hex>" of its canonical form serialised as Python's json.dumps
// (sorted keys, no white space, non-ASCII raw, floats as Python's repr).
// surfaceprint trusted a stored digest and never recomputed it; the
// converter recomputes it, so that a snapshot edited after the tool wrote
// it is named in a note. An error means the surface holds something whose
// Python form this port does not reproduce (a dict inside a mixed-type
// enum, say); the digest is then not verified.
func Digest(surface map[string]any) (string, error) {
	c, err := canonicalSurface(surface)
	if err != nil {
		return "", err
	}
	var buf bytes.Buffer
	if err := pyDump(&buf, c); err != nil {
		return "", err
	}
	sum := sha256.Sum256(buf.Bytes())
	return "sha256:" + hex.EncodeToString(sum[:]), nil
}

// errNotPython: a value whose Python canonical form is not reproduced.
var errNotPython = errors.New("a value whose Python form is not reproduced")

// canonicalSurface is surfaceprint's canonical surface (reference §3.1).
func canonicalSurface(s map[string]any) (map[string]any, error) {
	out := map[string]any{}
	var err error
	if out["tools"], err = canonicalTools(s["tools"]); err != nil {
		return nil, err
	}
	if out["resources"], err = canonicalResources(s["resources"], "uri"); err != nil {
		return nil, err
	}
	if out["resourceTemplates"], err = canonicalResources(s["resourceTemplates"], "uriTemplate"); err != nil {
		return nil, err
	}
	if out["prompts"], err = canonicalPrompts(s["prompts"]); err != nil {
		return nil, err
	}
	if out["declarationSources"], err = canonicalSources(s["declarationSources"]); err != nil {
		return nil, err
	}
	return out, nil
}

func canonicalTools(v any) ([]any, error) {
	out := []any{}
	for _, it := range array(v) {
		t, ok := it.(map[string]any)
		if !ok {
			continue
		}
		schema, err := pySchema(t["inputSchema"])
		if err != nil {
			return nil, err
		}
		out = append(out, map[string]any{"name": t["name"], "description": t["description"], "inputSchema": schema})
	}
	return out, sortBy(out, "name")
}

func canonicalResources(v any, idKey string) ([]any, error) {
	out := []any{}
	for _, it := range array(v) {
		r, ok := it.(map[string]any)
		if !ok {
			out = append(out, map[string]any{idKey: it})
			continue
		}
		ann, err := pySchema(r["annotations"])
		if err != nil {
			return nil, err
		}
		out = append(out, map[string]any{idKey: r[idKey], "name": r["name"], "title": r["title"],
			"description": r["description"], "mimeType": r["mimeType"], "annotations": ann})
	}
	return out, sortBy(out, idKey)
}

func canonicalPrompts(v any) ([]any, error) {
	out := []any{}
	for _, it := range array(v) {
		p, ok := it.(map[string]any)
		if !ok {
			continue
		}
		args := []any{}
		for _, a := range array(p["arguments"]) {
			am, ok := a.(map[string]any)
			if !ok {
				continue
			}
			arg := map[string]any{"name": am["name"]}
			for _, k := range []string{"description", "required", "schema"} {
				if x, ok := am[k]; ok && x != nil {
					if k == "schema" {
						var err error
						if x, err = pySchema(x); err != nil {
							return nil, err
						}
					}
					arg[k] = x
				}
			}
			args = append(args, arg)
		}
		if err := sortBy(args, "name"); err != nil {
			return nil, err
		}
		out = append(out, map[string]any{"name": p["name"], "description": p["description"], "arguments": args})
	}
	return out, sortBy(out, "name")
}

func canonicalSources(v any) ([]any, error) {
	out := []any{}
	for _, it := range array(v) {
		s, ok := it.(map[string]any)
		if !ok {
			continue
		}
		c := map[string]any{}
		for _, k := range []string{"sourceType", "name", "uri"} {
			if x, ok := s[k]; ok {
				c[k] = x
			}
		}
		if x, ok := s["extracted"]; ok {
			ex, err := canonicalExtracted(x)
			if err != nil {
				return nil, err
			}
			c["extracted"] = ex
		}
		out = append(out, c)
	}
	var err error
	slices.SortStableFunc(out, func(a, b any) int {
		am, bm := a.(map[string]any), b.(map[string]any)
		for _, k := range []string{"sourceType", "uri", "name"} {
			as, aok := orEmpty(am[k])
			bs, bok := orEmpty(bm[k])
			if !aok || !bok {
				err = errNotPython
			}
			if c := strings.Compare(as, bs); c != 0 {
				return c
			}
		}
		return 0
	})
	return out, err
}

func canonicalExtracted(v any) (any, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return pySchema(v)
	}
	out := map[string]any{}
	for k, x := range m {
		if k != "toolCapabilities" {
			c, err := pySchema(x)
			if err != nil {
				return nil, err
			}
			out[k] = c
			continue
		}
		list, ok := x.([]any)
		if !ok {
			c, err := pySchema(x)
			if err != nil {
				return nil, err
			}
			out[k] = c
			continue
		}
		type entry struct {
			key string
			v   any
		}
		var entries []entry
		for _, it := range list {
			e, ok := it.(map[string]any)
			if !ok {
				entries = append(entries, entry{"", map[string]any{"value": it}})
				continue
			}
			tool, truthy := e["tool"].(string)
			if !truthy || tool == "" {
				c, err := pySchema(e)
				if err != nil {
					return nil, err
				}
				entries = append(entries, entry{"", c})
				continue
			}
			c := map[string]any{"tool": tool}
			for ek, ev := range e {
				switch ek {
				case "tool":
				case "description":
					c[ek] = ev
				case "operations":
					if ops, ok := ev.([]any); ok {
						sorted, err := pySorted(ops)
						if err != nil {
							return nil, err
						}
						c[ek] = sorted
						continue
					}
					fallthrough
				default:
					s, err := pySchema(ev)
					if err != nil {
						return nil, err
					}
					c[ek] = s
				}
			}
			entries = append(entries, entry{tool, c})
		}
		slices.SortStableFunc(entries, func(a, b entry) int { return strings.Compare(a.key, b.key) })
		arr := make([]any, len(entries))
		for i, e := range entries {
			arr[i] = e.v
		}
		out[k] = arr
	}
	return out, nil
}

// pySchema sorts every list under a key named required or enum, at any
// depth; other lists keep their order.
func pySchema(v any) (any, error) {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			if arr, ok := e.([]any); ok && (k == "required" || k == "enum") {
				s, err := pySorted(arr)
				if err != nil {
					return nil, err
				}
				out[k] = s
				continue
			}
			c, err := pySchema(e)
			if err != nil {
				return nil, err
			}
			out[k] = c
		}
		return out, nil
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			c, err := pySchema(e)
			if err != nil {
				return nil, err
			}
			out[i] = c
		}
		return out, nil
	}
	return v, nil
}

// pySorted is Python's sorted() of a list of strings or of numbers (bools
// count as 0 and 1). Items that cannot be compared with each other are
// replaced by their str(), collapsed on white space, and sorted as
// strings: ["a", null] becomes ["None", "a"].
func pySorted(arr []any) ([]any, error) {
	out := slices.Clone(arr)
	if len(out) < 2 {
		return out, nil
	}
	allStr, allNum := true, true
	for _, e := range out {
		switch e.(type) {
		case string:
			allNum = false
		case json.Number, bool:
			allStr = false
		default:
			allStr, allNum = false, false
		}
	}
	switch {
	case allStr:
		slices.SortStableFunc(out, func(a, b any) int { return strings.Compare(a.(string), b.(string)) })
		return out, nil
	case allNum:
		nums := make([]*big.Float, len(out))
		for i, e := range out {
			f, err := pyNum(e)
			if err != nil {
				return nil, err
			}
			nums[i] = f
		}
		idx := make([]int, len(out))
		for i := range idx {
			idx[i] = i
		}
		slices.SortStableFunc(idx, func(a, b int) int { return nums[a].Cmp(nums[b]) })
		sorted := make([]any, len(out))
		for i, j := range idx {
			sorted[i] = out[j]
		}
		return sorted, nil
	}
	strs := make([]any, len(out))
	for i, e := range out {
		s, err := pyStr(e)
		if err != nil {
			return nil, err
		}
		strs[i] = strings.Join(strings.Fields(s), " ")
	}
	slices.SortStableFunc(strs, func(a, b any) int { return strings.Compare(a.(string), b.(string)) })
	return strs, nil
}

func pyNum(e any) (*big.Float, error) {
	switch x := e.(type) {
	case bool:
		if x {
			return big.NewFloat(1), nil
		}
		return big.NewFloat(0), nil
	case json.Number:
		f, _, err := big.ParseFloat(x.String(), 10, 256, big.ToNearestEven)
		return f, err
	}
	return nil, errNotPython
}

// pyStr is Python's str() of a scalar.
func pyStr(e any) (string, error) {
	switch x := e.(type) {
	case nil:
		return "None", nil
	case bool:
		if x {
			return "True", nil
		}
		return "False", nil
	case string:
		return x, nil
	case json.Number:
		var b bytes.Buffer
		if err := pyNumber(&b, x); err != nil {
			return "", err
		}
		return b.String(), nil
	}
	return "", fmt.Errorf("%w: str() of %T", errNotPython, e)
}

// sortBy sorts entity objects by the string at key, "" when null or empty.
func sortBy(items []any, key string) error {
	var err error
	slices.SortStableFunc(items, func(a, b any) int {
		as, aok := orEmpty(a.(map[string]any)[key])
		bs, bok := orEmpty(b.(map[string]any)[key])
		if !aok || !bok {
			err = errNotPython
		}
		return strings.Compare(as, bs)
	})
	return err
}

func orEmpty(v any) (string, bool) {
	switch x := v.(type) {
	case nil:
		return "", true
	case string:
		return x, true
	}
	return "", false
}

// pyDump writes v as json.dumps(v, sort_keys=True, separators=(",", ":"),
// ensure_ascii=False) would.
func pyDump(b *bytes.Buffer, v any) error {
	switch x := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		b.WriteString(strconv.FormatBool(x))
	case string:
		pyString(b, x)
	case json.Number:
		return pyNumber(b, x)
	case []any:
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteByte(',')
			}
			if err := pyDump(b, e); err != nil {
				return err
			}
		}
		b.WriteByte(']')
	case map[string]any:
		keys := migrate.SortedKeys(x) // code point order, as Python sorts str
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteByte(',')
			}
			pyString(b, k)
			b.WriteByte(':')
			if err := pyDump(b, x[k]); err != nil {
				return err
			}
		}
		b.WriteByte('}')
	default:
		return fmt.Errorf("%w: %T", errNotPython, v)
	}
	return nil
}

// pyString escapes only ", \, \n, \r, \t, \b, \f and other controls below
// 0x20 (as \u00xx); everything else is written raw.
func pyString(b *bytes.Buffer, s string) {
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		default:
			if c < 0x20 {
				fmt.Fprintf(b, `\u%04x`, c)
			} else {
				b.WriteByte(c)
			}
		}
	}
	b.WriteByte('"')
}

// pyNumber writes a JSON number as Python reads and writes it: a token
// with '.', 'e' or 'E' is a float (written as repr), any other an int
// (written exactly).
func pyNumber(b *bytes.Buffer, n json.Number) error {
	s := n.String()
	if !strings.ContainsAny(s, ".eE") {
		i, ok := new(big.Int).SetString(s, 10)
		if !ok {
			return fmt.Errorf("%w: number %s", errNotPython, s)
		}
		b.WriteString(i.String())
		return nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return fmt.Errorf("%w: float %s", errNotPython, s) // inf: Python refuses it too
	}
	b.WriteString(pyRepr(f))
	return nil
}

// pyRepr is Python's repr() of a finite float: the shortest digits that
// round-trip, positional for exponents from -4 to 15, else d.ddde±XX.
func pyRepr(f float64) string {
	e := strconv.FormatFloat(f, 'e', -1, 64) // -d.dddde±XX
	sign := ""
	if e[0] == '-' {
		sign, e = "-", e[1:]
	}
	mant, expStr, _ := strings.Cut(e, "e")
	exp, _ := strconv.Atoi(expStr)
	if exp < -4 || exp >= 16 {
		return sign + mant + "e" + expStr // Go writes at least two digits, as Python
	}
	digits := strings.Replace(mant, ".", "", 1)
	var out string
	if exp >= 0 {
		if len(digits) <= exp+1 {
			out = digits + strings.Repeat("0", exp+1-len(digits)) + ".0"
		} else {
			out = digits[:exp+1] + "." + digits[exp+1:]
		}
	} else {
		out = "0." + strings.Repeat("0", -exp-1) + digits
	}
	return sign + out
}
