package domain

import (
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/net/html"

	"lanchat/backend/store"
)

// notificationBodyLength is as long as a notification's text gets, as in
// the web app's (frontend/src/state/notify.ts notificationText).
const notificationBodyLength = 150

// hiddenContent stands for the text of a message when the person chose
// not to show it in notifications.
const hiddenContent = "New message"

// notificationText is a notification's title (the sender, and for a stream
// message where it was said) and body (the message as plain text).
func notificationText(m store.Message, sender, streamName string, showContent bool) (title, body string) {
	title = sender
	if !m.IsPrivate() {
		title = fmt.Sprintf("%s (#%s › %s)", sender, streamName, m.Topic)
	}
	if !showContent {
		return title, hiddenContent
	}
	body = strings.Join(strings.Fields(renderedText(m.Rendered)), " ")
	if r := []rune(body); len(r) > notificationBodyLength {
		body = string(r[:notificationBodyLength-1]) + "…"
	}
	return title, body
}

// blockTags end a line of text.
var blockTags = map[string]bool{"p": true, "div": true, "li": true, "h1": true, "h2": true, "h3": true, "h4": true,
	"h5": true, "h6": true, "pre": true, "blockquote": true, "tr": true, "td": true, "th": true}

// renderedText is the text of rendered HTML, blocks apart.
func renderedText(rendered string) string {
	var b strings.Builder
	z := html.NewTokenizer(strings.NewReader(rendered))
	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			return b.String()
		case html.TextToken:
			b.Write(z.Text())
		case html.EndTagToken, html.StartTagToken, html.SelfClosingTagToken:
			name, _ := z.TagName()
			if tt == html.EndTagToken && blockTags[string(name)] || string(name) == "br" {
				b.WriteByte(' ')
			}
		}
	}
}

// conversationHash is the web app's link to the message in its
// conversation, as the recipient uid sees it: the stream's topic, or the
// direct message conversation with the others in it (Zulip's
// #narrow/channel/ID-name/topic/…/near/ID and #narrow/dm/IDs/near/ID).
func conversationHash(tx *store.Tx, m store.Message, uid int64, streamName string) string {
	near := "/near/" + strconv.FormatInt(m.ID, 10)
	if !m.IsPrivate() {
		return fmt.Sprintf("#narrow/channel/%d-%s/topic/%s%s", m.StreamID, hashPart(streamName), hashPart(m.Topic), near)
	}
	others := slices.DeleteFunc(slices.Clone(m.PrivateUserIDs), func(id int64) bool { return id == uid })
	if len(others) == 0 {
		others = []int64{uid}
	}
	ids := make([]string, len(others))
	for i, id := range others {
		ids[i] = strconv.FormatInt(id, 10)
	}
	return "#narrow/dm/" + strings.Join(ids, ",") + near
}

// hashPart encodes one part of a narrow link as Zulip does: percent
// encoding with "." for "%" (and "%2E" for ".").
func hashPart(s string) string {
	e := strings.ReplaceAll(url.PathEscape(s), ".", "%2E")
	return strings.ReplaceAll(e, "%", ".")
}
