package api

import "lanchat/backend/domain"

// scheduledChange reads the fields of POST or PATCH /scheduled_messages
// that the request carries.
func scheduledChange(c *call) (domain.ScheduledMessageChange, error) {
	var ch domain.ScheduledMessageChange
	ch.Type = c.p.strGiven("type")
	if c.p.has("to") {
		to := c.p.optStr("to", "")
		if ch.Type == nil {
			return ch, domain.BadRequest("Recipient changes need the message's type")
		}
		if *ch.Type == "stream" || *ch.Type == "channel" {
			stream, err := streamIndicator(to)
			if err != nil {
				return ch, err
			}
			ch.Stream = stream
		} else {
			ch.To = recipientList(to)
		}
	}
	ch.Topic = c.p.topicGiven()
	ch.Content = c.p.strGiven("content")
	ch.DeliverAt = c.p.intGiven("scheduled_delivery_timestamp")
	return ch, c.p.err()
}

func listScheduledMessages(c *call) (J, error) {
	list, err := c.api.svc.ScheduledMessages(c.user)
	if err != nil {
		return nil, err
	}
	return J{"scheduled_messages": list}, nil
}

func createScheduledMessage(c *call) (J, error) {
	ch, err := scheduledChange(c)
	if err != nil {
		return nil, err
	}
	id, err := c.api.svc.ScheduleMessage(c.user, ch)
	if err != nil {
		return nil, err
	}
	return J{"scheduled_message_id": id}, nil
}

func editScheduledMessage(c *call) (J, error) {
	id := c.p.pathInt("scheduled_message_id")
	ch, err := scheduledChange(c)
	if err != nil {
		return nil, err
	}
	return nil, c.api.svc.EditScheduledMessage(c.user, id, ch)
}

func deleteScheduledMessage(c *call) (J, error) {
	id := c.p.pathInt("scheduled_message_id")
	if err := c.p.err(); err != nil {
		return nil, err
	}
	return nil, c.api.svc.DeleteScheduledMessage(c.user, id)
}
