package integrations

import (
	"fmt"
	"strings"
	"testing"
)

func TestJSONPayload(t *testing.T) {
	runCases(t, "json", []convertCase{
		{name: "recorded", fixture: "json_generic.json",
			content: "```json\n{\n  \"job\": \"nightly-backup\",\n  \"ok\": true,\n  \"duration_s\": 312\n}\n```"},
		// Pingdom's alert, as Zulip's JSON integration tests record it.
		{name: "zulip fixture, Pingdom", fixture: "zulip/json_pingdom_http_up_to_down.json",
			content: "```json\n{\n  \"check_id\": 2048467,\n  \"check_name\": \"Test check\",\n  \"check_type\": \"HTTP\",\n  \"check_params\": {\n" +
				"    \"basic_auth\": false,\n    \"encryption\": false,\n    \"full_url\": \"http:\\/\\/someurl.com\\/\",\n" +
				"    \"header\": \"User-Agent:Pingdom.com_bot_version_1.4_(http:\\/\\/www.pingdom.com\\/)\",\n    \"hostname\": \"someurl.com\",\n" +
				"    \"ipv6\": false,\n    \"port\": 80,\n    \"url\": \"\\/\"\n  },\n  \"tags\": [],\n  \"previous_state\": \"UP\",\n  \"current_state\": \"DOWN\",\n" +
				"  \"state_changed_timestamp\": 1457939434,\n  \"state_changed_utc_time\": \"2016-03-14T07:10:34\",\n" +
				"  \"long_description\": \"Non-recoverable failure in name resolution\",\n  \"description\": \"DNS error\",\n" +
				"  \"first_probe\": {\n    \"ip\": \"85.17.156.99\",\n    \"ipv6\": \"2001:1af8:4100:a09b::454\",\n    \"location\": \"Amsterdam 5, Netherlands\"\n  },\n" +
				"  \"second_probe\": {\n    \"ip\": \"64.141.100.136\",\n    \"ipv6\": \"\",\n    \"location\": \"Calgary, Canada\"\n  }\n}\n```"},
		{name: "a list, keys kept in order", body: ` [{"b": 1, "a": [true, null]}] `,
			content: "```json\n[\n  {\n    \"b\": 1,\n    \"a\": [\n      true,\n      null\n    ]\n  }\n]\n```"},
		{name: "backticks inside cannot end the block", body: "{\"md\": \"````x```\"}",
			content: "`````json\n{\n  \"md\": \"````x```\"\n}\n`````"},
		{name: "unclosed", body: `{"unclosed": `, err: "Malformed JSON"},
		{name: "empty", body: ``, err: "Malformed JSON"},
	})
}

// A document longer than a message is cut at a line inside its block, and
// the message says how much is not shown; one long line is cut too.
func TestJSONPayloadTooLongForAMessage(t *testing.T) {
	i, _ := Lookup("json")
	var items []string
	for n := range 2000 {
		items = append(items, fmt.Sprintf(`{"host": "node%04d", "ok": true}`, n))
	}
	for name, body := range map[string]string{
		"many lines": "[" + strings.Join(items, ",") + "]",
		"one line":   `"` + strings.Repeat("é", 20000) + `"`,
	} {
		msgs, err := i.Convert(Request{Body: []byte(body), MaxContent: serverLimit})
		if err != nil {
			t.Fatal(err)
		}
		content := msgs[0].Content
		block, note, found := strings.Cut(content, "\n```\n*")
		if len(content) > serverLimit || !found || !strings.HasPrefix(block, "```json\n") || !strings.HasSuffix(note, " more bytes not shown.*") {
			t.Errorf("%s: %d bytes, ends %q", name, len(content), content[len(content)-80:])
		}
	}
}
