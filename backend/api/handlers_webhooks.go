package api

import (
	"errors"
	"fmt"
	"io"

	"lanchat/backend/domain"
	"lanchat/backend/integrations"
)

// maxWebhookBody bounds third-party payloads.
const maxWebhookBody = 4 << 20

// webhook answers POST /api/v1/external/{integration}. Tools send their
// payload as a JSON body, which the parameter parser leaves unread; those
// that send a form instead (Gitea can) put it in the `payload` field.
func webhook(c *call) (J, error) {
	body, err := io.ReadAll(c.r.Body)
	if err != nil {
		return nil, err
	}
	if len(body) == 0 {
		body = []byte(c.p.optStr("payload", ""))
	}
	stream := c.p.optStr("stream", "")
	err = c.api.svc.Webhook(c.user, domain.WebhookCall{
		Integration: c.r.PathValue("integration"),
		Request:     integrations.Request{Body: body, Header: c.r.Header, Query: c.r.URL.Query()},
		Stream:      stream,
		Topic:       c.p.optStr("topic", ""),
	})
	if errors.Is(err, domain.ErrNoStream) {
		// The sender succeeded as far as it can tell; the log says where
		// its messages went.
		recordReason(c.w, fmt.Sprintf("stream %q: %v", stream, err))
		return nil, nil
	}
	return nil, err
}
