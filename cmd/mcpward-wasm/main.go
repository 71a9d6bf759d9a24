//go:build js && wasm

// Command mcpward-wasm is the engine of the site's engine page: the pure
// core (internal/site/engine) compiled to WebAssembly, run by the page's
// Web Worker (internal/site/assets/engine-worker.js). It sets
// globalThis.mcpwardEngine and waits for calls; it does no I/O of its own
// and never touches the network. It is built once for all releases and
// embedded in mcpward (internal/site/prebuilt, written by go generate; see
// internal/site), so it carries no version of its own: the worker passes
// mcpward's version as its first argument (go.argv).
//
// Every function returns a JSON string: {"report": …} or {"error": …}
// (engine.Report, engine.Error). Bytes are passed as Uint8Array.
//
//	diff(oldName, oldBytes, newName, newBytes, failOn, migrate)
//	result(name, bytes)
//	logBegin(name) -> handle; logWrite(handle, bytes) -> "" or error JSON; logEnd(handle)
//	demo() -> Promise of the JSON (records the fixtures clean@v1 and
//	       drift-breaking@v2 in process and diffs them: engine.Demo)
package main

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"syscall/js"

	"github.com/mcpward/mcpward/internal/result"
	"github.com/mcpward/mcpward/internal/site/engine"
)

func main() {
	version := "dev"
	if len(os.Args) > 1 && os.Args[1] != "" {
		version = os.Args[1]
	}
	logs := map[int]*engine.LogCheck{}
	next := 0
	api := map[string]any{
		"version": version,
		"diff": js.FuncOf(func(_ js.Value, a []js.Value) any {
			rep, err := engine.Diff(
				engine.Input{Name: a[0].String(), Data: bytesOf(a[1])},
				engine.Input{Name: a[2].String(), Data: bytesOf(a[3])},
				engine.DiffOptions{FailOn: a[4].String(), Migrate: a[5].Bool(), Version: version})
			return answer(rep, err)
		}),
		"result": js.FuncOf(func(_ js.Value, a []js.Value) any {
			rep, err := engine.ReadResult(engine.Input{Name: a[0].String(), Data: bytesOf(a[1])})
			return answer(rep, err)
		}),
		"demo": js.FuncOf(func(_ js.Value, _ []js.Value) any {
			// The fixtures answer on goroutines and the client keeps
			// timers: run on a goroutine of its own and answer with a
			// Promise, so the worker's event loop is free meanwhile.
			return promise(func() string {
				rep, err := engine.Demo(context.Background(), version)
				return answer(rep, err)
			})
		}),
		"logBegin": js.FuncOf(func(_ js.Value, a []js.Value) any {
			next++
			logs[next] = engine.NewLogCheck(a[0].String(), version)
			return next
		}),
		"logWrite": js.FuncOf(func(_ js.Value, a []js.Value) any {
			lc, ok := logs[a[0].Int()]
			if !ok {
				return answer(nil, errors.New("no such log check"))
			}
			if _, err := lc.Write(bytesOf(a[1])); err != nil {
				return answer(nil, err)
			}
			return ""
		}),
		"logEnd": js.FuncOf(func(_ js.Value, a []js.Value) any {
			lc, ok := logs[a[0].Int()]
			if !ok {
				return answer(nil, errors.New("no such log check"))
			}
			delete(logs, a[0].Int())
			rep, err := lc.Close()
			return answer(rep, err)
		}),
	}
	js.Global().Set("mcpwardEngine", js.ValueOf(api))
	select {} // serve calls until the worker ends
}

// promise runs f on a goroutine and returns a Promise of its answer.
func promise(f func() string) js.Value {
	var executor js.Func
	executor = js.FuncOf(func(_ js.Value, a []js.Value) any {
		resolve := a[0]
		executor.Release()
		go func() { resolve.Invoke(f()) }()
		return nil
	})
	return js.Global().Get("Promise").New(executor)
}

func bytesOf(v js.Value) []byte {
	b := make([]byte, v.Get("length").Int())
	js.CopyBytesToGo(b, v)
	return b
}

func answer(rep *engine.Report, err error) string {
	var out any
	if err != nil {
		var e *engine.Error
		if !errors.As(err, &e) {
			e = &engine.Error{Message: err.Error(), ExitCode: result.Internal}
		}
		out = map[string]any{"error": e}
	} else {
		out = map[string]any{"report": rep}
	}
	b, err := json.Marshal(out)
	if err != nil {
		return `{"error":{"message":"encode the answer: ` + err.Error() + `","exitCode":5}}`
	}
	return string(b)
}
