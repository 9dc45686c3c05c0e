package domain

import (
	"cmp"
	"errors"
	"fmt"
	"strconv"

	"lanchat/backend/integrations"
	"lanchat/backend/store"
)

// WebhookCall is one incoming webhook request.
type WebhookCall struct {
	Integration string
	Request     integrations.Request
	Stream      string // name, or digits for an ID; empty: tell the bot's owner privately
	Topic       string // empty: the integration's choice, then its default
}

// ErrNoStream says why a webhook's messages went to the bot's owner.
var ErrNoStream = errors.New("the stream does not exist: the bot's owner was told")

// Webhook converts a payload with its integration and sends its messages
// as the bot. A stream that does not exist is not the caller's error (as
// in Zulip): the bot's owner is told privately instead, and the answer is
// ErrNoStream, which callers report as a success.
func (s *Service) Webhook(bot store.User, call WebhookCall) error {
	integration, ok := integrations.Lookup(call.Integration)
	if !ok {
		return BadRequest("Unknown integration '%s'", call.Integration)
	}
	call.Request.MaxContent = MaxMessageBytes
	msgs, err := integration.Convert(call.Request)
	if errors.Is(err, integrations.ErrPayload) {
		return BadRequest("%s", err.Error())
	}
	if event, ok := integrations.UnsupportedEvent(err); ok {
		return errorf(CodeUnsupportedWebhookEvent, "The %s event '%s' is not supported: ignored", integration.Client, event).
			With("webhook_name", integration.Client).With("event_type", event)
	}
	if err != nil {
		return err
	}
	client := "Zulip" + integration.Client + "Webhook"
	owner := strconv.FormatInt(bot.BotOwnerID, 10)
	if bot.BotOwnerID == 0 {
		owner = strconv.FormatInt(bot.ID, 10)
	}
	for _, msg := range msgs {
		out := OutgoingMessage{Type: "private", To: []string{owner}, Content: msg.Content, Client: client}
		if call.Stream != "" {
			out = OutgoingMessage{Type: "stream", Stream: call.Stream, Topic: cmp.Or(call.Topic, msg.Topic, integration.DefaultTopic), Content: msg.Content, Client: client}
		}
		_, err = s.SendMessage(bot, out)
		var de *Error
		if errors.As(err, &de) && de.Code == CodeStreamDoesNotExist {
			note := fmt.Sprintf("Your bot `%s` tried to send a message to stream #**%s**, but that stream does not exist. "+
				"Create it, or fix the bot's webhook URL.", bot.Email, call.Stream)
			if _, err := s.SendMessage(bot, OutgoingMessage{Type: "private", To: []string{owner}, Content: note, Client: client}); err != nil {
				return err
			}
			return ErrNoStream
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// incomingWebhookBots is register's realm_incoming_webhook_bots: the
// integrations this server takes, none filtering events by type.
func incomingWebhookBots() []map[string]any {
	out := []map[string]any{}
	for _, i := range integrations.All() {
		options := i.Options
		if options == nil {
			options = []integrations.ConfigOption{}
		}
		out = append(out, map[string]any{"name": i.Name, "display_name": cmp.Or(i.DisplayName, i.Client),
			"all_event_types": nil, "config_options": options})
	}
	return out
}
