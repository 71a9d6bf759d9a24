package jsonrpc_test

import (
	"fmt"

	"github.com/mcpward/mcpward/internal/jsonrpc"
)

func ExampleDecode() {
	for _, frame := range []string{
		`{"jsonrpc":"2.0","id":"7","method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":7,"result":{"tools":[]}}`,
		`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1}}`,
		`{"id":7,"result":{}}`,
		`not json`,
	} {
		m := jsonrpc.Decode([]byte(frame))
		fmt.Printf("%-12s id=%-4s method=%q err=%v\n", m.Kind, m.ID, m.Method, m.Err)
	}
	// Output:
	// request      id="7"  method="tools/list" err=<nil>
	// result       id=7    method="" err=<nil>
	// notification id=     method="notifications/progress" err=<nil>
	// invalid      id=7    method="" err=jsonrpc member is not "2.0": missing
	// invalid      id=     method="" err=not JSON: invalid character 'o' in literal null (expecting 'u') at byte 2
}

func ExampleParseSSE() {
	body := "id: prime-1\ndata:\n\nevent: message\nid: 2\ndata: {\"jsonrpc\":\"2.0\",\ndata: \"id\":1,\"result\":{}}\n\n"
	events, _ := jsonrpc.ParseSSE([]byte(body))
	for _, ev := range events {
		if len(ev.Data) == 0 {
			fmt.Printf("priming event %s (skipped)\n", ev.ID)
			continue
		}
		m := jsonrpc.Decode(ev.Data)
		fmt.Printf("event %s: %s id=%s\n", ev.ID, m.Kind, m.ID)
	}
	// Output:
	// priming event prime-1 (skipped)
	// event 2: result id=1
}
