package integrations

import "testing"

func TestJSONPayload(t *testing.T) {
	runCases(t, "json", []convertCase{
		{name: "recorded", fixture: "json_generic.json",
			content: "```json\n{\n  \"job\": \"nightly-backup\",\n  \"ok\": true,\n  \"duration_s\": 312\n}\n```"},
		{name: "a list, keys kept in order", body: ` [{"b": 1, "a": [true, null]}] `,
			content: "```json\n[\n  {\n    \"b\": 1,\n    \"a\": [\n      true,\n      null\n    ]\n  }\n]\n```"},
		{name: "backticks inside cannot end the block", body: "{\"md\": \"````x```\"}",
			content: "`````json\n{\n  \"md\": \"````x```\"\n}\n`````"},
		{name: "unclosed", body: `{"unclosed": `, err: "Malformed JSON"},
		{name: "empty", body: ``, err: "Malformed JSON"},
	})
}
