package integrations

import (
	"bytes"
	"encoding/json"
)

// jsonPayload posts any JSON document, pretty-printed in a code block, for
// tools without an integration of their own.
func init() {
	register(Integration{Name: "json", DefaultTopic: "JSON", Convert: jsonPayload})
}

func jsonPayload(r Request) (Message, error) {
	var pretty bytes.Buffer
	if err := json.Indent(&pretty, bytes.TrimSpace(r.Body), "", "  "); err != nil {
		return Message{}, payloadError("Malformed JSON")
	}
	return Message{Content: "```json\n" + pretty.String() + "\n```"}, nil
}
