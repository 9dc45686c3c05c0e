package integrations

import "fmt"

// helloworld is the example integration of spec 4.23.
func init() {
	register(Integration{Name: "helloworld", DisplayName: "Hello World", Client: "HelloWorld", DefaultTopic: "Hello World", Convert: helloWorld})
}

func helloWorld(r Request) ([]Message, error) {
	var p struct {
		FeaturedTitle *string `json:"featured_title"`
		FeaturedURL   *string `json:"featured_url"`
	}
	if err := decode(r, &p); err != nil {
		return nil, err
	}
	switch {
	case p.FeaturedTitle == nil:
		return nil, payloadError("Missing 'featured_title' argument")
	case p.FeaturedURL == nil:
		return nil, payloadError("Missing 'featured_url' argument")
	}
	content := fmt.Sprintf("Hello! I am happy to be here! :smile:\nThe Wikipedia featured article for today is **[%s](%s)**",
		*p.FeaturedTitle, *p.FeaturedURL)
	return []Message{{Content: content}}, nil
}
