package zulip

import "strings"

// uploadPrefix starts a link to an uploaded file in message content.
const uploadPrefix = "/user_uploads/"

// uploadLinks calls fn with the path after /user_uploads/ of each link to
// an uploaded file in content, and the offsets of that path. A path ends
// where markdown or HTML around it does.
func uploadLinks(content string, fn func(path string, start, end int)) {
	for from := 0; ; {
		i := strings.Index(content[from:], uploadPrefix)
		if i < 0 {
			return
		}
		start := from + i + len(uploadPrefix)
		end := strings.IndexAny(content[start:], ")]\"'<> \n\t")
		if end < 0 {
			end = len(content)
		} else {
			end += start
		}
		fn(content[start:end], start, end)
		from = end
	}
}
