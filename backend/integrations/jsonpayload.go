package integrations

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"
)

// jsonPayload posts any JSON document, pretty-printed in a code block, for
// tools without an integration of their own.
func init() {
	register(Integration{Name: "json", DisplayName: "JSON formatter", Client: "JSON", DefaultTopic: "JSON", Convert: jsonPayload})
}

func jsonPayload(r Request) ([]Message, error) {
	var pretty bytes.Buffer
	if err := json.Indent(&pretty, bytes.TrimSpace(r.Body), "", "  "); err != nil {
		return nil, payloadError("Malformed JSON")
	}
	text := pretty.String()
	// A document too long for one message is cut at a line, inside the
	// block, and the note after the block says how much was left out.
	const noteRoom = 100
	note := ""
	if r.MaxContent > 0 && len(text) > r.MaxContent-noteRoom {
		cutAt := strings.LastIndexByte(text[:r.MaxContent-noteRoom], '\n')
		if cutAt <= 0 { // one long line: cut it at a character
			for cutAt = r.MaxContent - noteRoom; !utf8.RuneStart(text[cutAt]); cutAt-- {
			}
		}
		note = fmt.Sprintf("\n*%d more bytes not shown.*", len(text)-cutAt)
		text = text[:cutAt]
	}
	fence := codeFence(text, 3)
	return []Message{{Content: fence + "json\n" + text + "\n" + fence + note}}, nil
}

// codeFence is a run of backticks, at least least long and longer than
// any inside text, so a string value holding ``` cannot end the block (or
// a code span) early.
func codeFence(text string, least int) string {
	longest, run := 0, 0
	for _, r := range text {
		if r == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	return strings.Repeat("`", max(least, longest+1))
}
