package integrations

import "testing"

func TestHelloWorld(t *testing.T) {
	runCases(t, "helloworld", []convertCase{
		{name: "recorded", fixture: "helloworld.json",
			content: "Hello! I am happy to be here! :smile:\nThe Wikipedia featured article for today is **[Marilyn Monroe](https://en.wikipedia.org/wiki/Marilyn_Monroe)**"},
		{name: "extra keys ignored", body: `{"featured_title": "Go", "featured_url": "https://go.dev/", "extra": 1}`,
			content: "Hello! I am happy to be here! :smile:\nThe Wikipedia featured article for today is **[Go](https://go.dev/)**"},
		{name: "no title", body: `{"featured_url": "https://go.dev/"}`, err: "Missing 'featured_title' argument"},
		{name: "no url", body: `{"featured_title": "x"}`, err: "Missing 'featured_url' argument"},
		{name: "not JSON", body: `featured_title=x`, err: "Malformed JSON"},
		{name: "empty", body: ``, err: "Malformed JSON"},
	})
}
