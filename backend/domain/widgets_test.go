package domain

import "testing"

// TestWidgetDefinition holds the parser to what Zulip's get_widget_data and
// json.dumps give for the same content.
func TestWidgetDefinition(t *testing.T) {
	for _, c := range []struct{ content, want string }{
		{"/poll\tQ", `{"widget_type": "poll", "extra_data": {"question": "Q", "options": []}}`},
		{"/poll \nA", `{"widget_type": "poll", "extra_data": {"question": "", "options": ["A"]}}`},
		{"/poll Q\r\nA\r\n\r\n  -  B  \rC", `{"widget_type": "poll", "extra_data": {"question": "Q", "options": ["A", "B", "C"]}}`},
		{"/poll 😀 <b>&\x7f", `{"widget_type": "poll", "extra_data": {"question": "\ud83d\ude00 <b>&\u007f", "options": []}}`},
		{"/poll Q\n-\n*\n--x", `{"widget_type": "poll", "extra_data": {"question": "Q", "options": ["-x"]}}`},
		{"/todo\n  -  a : b: c", `{"widget_type": "todo", "extra_data": {"task_list_title": "", "tasks": [{"task": "a", "desc": "b: c"}]}}`},
		{"/todo T\nback\\slash\ttab", `{"widget_type": "todo", "extra_data": {"task_list_title": "T", "tasks": [{"task": "back\\slash\ttab", "desc": ""}]}}`},
		{" /poll Q", ""},
		{"/Poll Q", ""},
		{"/poll/ Q", ""},
		{"/me waves", ""},
	} {
		if got := widgetDefinition(c.content); got != c.want {
			t.Errorf("%q:\n got %s\nwant %s", c.content, got, c.want)
		}
	}
}
