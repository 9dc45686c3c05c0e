package api

import (
	"io"

	"lanchat/backend/domain"
	"lanchat/backend/integrations"
)

// maxWebhookBody bounds third-party payloads.
const maxWebhookBody = 4 << 20

// webhook answers POST /api/v1/external/{integration}.
func webhook(c *call) (J, error) {
	body, err := io.ReadAll(c.r.Body)
	if err != nil {
		return nil, err
	}
	return nil, c.api.svc.Webhook(c.user, domain.WebhookCall{
		Integration: c.r.PathValue("integration"),
		Request:     integrations.Request{Body: body, Header: c.r.Header, Query: c.r.URL.Query()},
		Stream:      c.r.URL.Query().Get("stream"),
		Topic:       c.r.URL.Query().Get("topic"),
	})
}
