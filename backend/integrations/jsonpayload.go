package integrations

import (
	"bytes"
	"encoding/json"
	"strings"
)

// jsonPayload posts any JSON document, pretty-printed in a code block, for
// tools without an integration of their own.
func init() {
	register(Integration{Name: "json", Client: "JSON", DefaultTopic: "JSON", Convert: jsonPayload})
}

func jsonPayload(r Request) ([]Message, error) {
	var pretty bytes.Buffer
	if err := json.Indent(&pretty, bytes.TrimSpace(r.Body), "", "  "); err != nil {
		return nil, payloadError("Malformed JSON")
	}
	fence := codeFence(pretty.String())
	return []Message{{Content: fence + "json\n" + pretty.String() + "\n" + fence}}, nil
}

// codeFence is a run of backticks longer than any inside text, so a
// string value holding ``` cannot end the block early.
func codeFence(text string) string {
	longest, run := 0, 0
	for _, r := range text {
		if r == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	return strings.Repeat("`", max(3, longest+1))
}
