package api

import (
	"net/http"

	"lanchat/backend/domain"
)

func subscribe(c *call) (J, error) {
	req := domain.SubscribeRequest{
		InviteOnly:               c.p.optBool("invite_only", false),
		WebPublic:                c.p.optBool("is_web_public", false),
		IsDefault:                c.p.optBool("is_default_stream", false),
		AuthorizationErrorsFatal: c.p.optBool("authorization_errors_fatal", true),
		GroupSettings:            groupSettingValues(c.p, domain.StreamGroupSettingNames()),
		Announce:                 c.p.optBool("announce", false),
	}
	c.p.json("subscriptions", &req.Streams)
	var refs userRefs
	c.p.optJSON("principals", &refs)
	req.Principals = refs
	if err := c.p.err(); err != nil {
		return nil, err
	}
	res, err := c.api.svc.Subscribe(c.user, req)
	if err != nil {
		return nil, err
	}
	return domain.ToMap(res)
}

func unsubscribe(c *call) (J, error) {
	var names []string
	var refs userRefs
	c.p.json("subscriptions", &names)
	c.p.optJSON("principals", &refs)
	if err := c.p.err(); err != nil {
		return nil, err
	}
	res, err := c.api.svc.Unsubscribe(c.user, names, refs)
	if err != nil {
		return nil, err
	}
	// Zulip's clients read not_removed; the spec names it not_subscribed.
	return J{"removed": res.Removed, "not_subscribed": res.NotSubscribed, "not_removed": res.NotSubscribed}, nil
}

func listSubscriptions(c *call) (J, error) {
	// include_subscribers is accepted and needless: spec 2.4 always lists them.
	c.p.optBool("include_subscribers", false)
	if err := c.p.err(); err != nil {
		return nil, err
	}
	subs, err := c.api.svc.Subscriptions(c.user)
	if err != nil {
		return nil, err
	}
	return J{"subscriptions": subs}, nil
}

func updateSubscriptionProperties(c *call) (J, error) {
	var changes []domain.PropertyChange
	c.p.json("subscription_data", &changes)
	if err := c.p.err(); err != nil {
		return nil, err
	}
	return nil, c.api.svc.UpdateSubscriptionProperties(c.user, changes)
}

func muteTopic(c *call) (J, error) {
	stream := c.p.optStr("stream", "")
	streamID := c.p.optInt("stream_id", 0)
	if stream == "" && streamID == 0 {
		c.p.str("stream")
	}
	topic, op := c.p.str("topic"), c.p.str("op")
	if err := c.p.err(); err != nil {
		return nil, err
	}
	return nil, c.api.svc.MuteTopic(c.user, stream, streamID, topic, op)
}

func setUserTopic(c *call) (J, error) {
	streamID, topic := c.p.int("stream_id"), c.p.str("topic")
	policy := c.p.int("visibility_policy")
	if err := c.p.err(); err != nil {
		return nil, err
	}
	return nil, c.api.svc.SetUserTopic(c.user, streamID, topic, int(policy))
}

func listStreams(c *call) (J, error) {
	f := domain.StreamFilter{
		IncludePublic:           c.p.optBool("include_public", true),
		IncludeSubscribed:       c.p.optBool("include_subscribed", true),
		IncludeAll:              c.p.optBool("include_all", false) || c.p.optBool("include_all_active", false),
		IncludeCanAccessContent: c.p.optBool("include_can_access_content", false),
	}
	// Level 315; Lanchat deletes streams rather than archiving them, so
	// there are none to exclude.
	c.p.optBool("exclude_archived", true)
	if err := c.p.err(); err != nil {
		return nil, err
	}
	streams, err := c.api.svc.Streams(c.user, f)
	if err != nil {
		return nil, err
	}
	return J{"streams": streams}, nil
}

func getStream(c *call) (J, error) {
	id := c.p.pathInt("stream_id")
	if err := c.p.err(); err != nil {
		return nil, err
	}
	st, err := c.api.svc.Stream(c.user, id)
	if err != nil {
		return nil, err
	}
	return J{"stream": st}, nil
}

func getStreamID(c *call) (J, error) {
	name := c.p.str("stream")
	if err := c.p.err(); err != nil {
		return nil, err
	}
	id, err := c.api.svc.StreamID(c.user, name)
	if err != nil {
		return nil, err
	}
	return J{"stream_id": id}, nil
}

func streamMembers(c *call) (J, error) {
	id := c.p.pathInt("stream_id")
	if err := c.p.err(); err != nil {
		return nil, err
	}
	ids, err := c.api.svc.StreamSubscribers(c.user, id)
	if err != nil {
		return nil, err
	}
	return J{"subscribers": ids}, nil
}

func streamEmailAddress(c *call) (J, error) {
	id := c.p.pathInt("stream_id")
	senderID := c.p.optInt("sender_id", 0)
	if err := c.p.err(); err != nil {
		return nil, err
	}
	email, err := c.api.svc.StreamEmailAddress(c.user, id, senderID)
	if err != nil {
		return nil, err
	}
	return J{"email": email}, nil
}

// userStreamRoute serves the two GET routes under /users/{user}/X/Y by the
// path's shape, naming the parts as their handlers read them.
func userStreamRoute(c *call) (J, error) {
	user, first, second := c.r.PathValue("user"), c.r.PathValue("first"), c.r.PathValue("second")
	switch {
	case first == "subscriptions":
		c.r.SetPathValue("user_id", user)
		c.r.SetPathValue("stream_id", second)
		return subscriptionStatus(c)
	case user == "me" && second == "topics":
		c.r.SetPathValue("stream_id", first)
		return streamTopics(c)
	}
	return nil, &statusError{http.StatusNotFound, domain.BadRequest("Not Found")}
}

func subscriptionStatus(c *call) (J, error) {
	userID, streamID := c.p.pathInt("user_id"), c.p.pathInt("stream_id")
	if err := c.p.err(); err != nil {
		return nil, err
	}
	subscribed, err := c.api.svc.SubscriptionStatus(c.user, userID, streamID)
	if err != nil {
		return nil, err
	}
	return J{"is_subscribed": subscribed}, nil
}

func streamTopics(c *call) (J, error) {
	id := c.p.pathInt("stream_id")
	if err := c.p.err(); err != nil {
		return nil, err
	}
	topics, err := c.api.svc.StreamTopics(c.user, id)
	if err != nil {
		return nil, err
	}
	return J{"topics": topics}, nil
}

func updateStream(c *call) (J, error) {
	id := c.p.pathInt("stream_id")
	var ch domain.StreamChange
	ch.NewName = c.p.strGiven("new_name")
	ch.Description = c.p.strGiven("description")
	ch.InviteOnly = c.p.boolGiven("is_private", false)
	ch.HistoryPublic = c.p.boolGiven("history_public_to_subscribers", false)
	ch.WebPublic = c.p.boolGiven("is_web_public", false)
	ch.IsDefault = c.p.boolGiven("is_default_stream", false)
	ch.GroupSettings = streamGroupSettingChanges(c.p)
	if err := c.p.err(); err != nil {
		return nil, err
	}
	return nil, c.api.svc.UpdateStream(c.user, id, ch)
}

func addDefaultStream(c *call) (J, error) {
	id := c.p.int("stream_id")
	if err := c.p.err(); err != nil {
		return nil, err
	}
	return nil, c.api.svc.AddDefaultStream(c.user, id)
}

func removeDefaultStream(c *call) (J, error) {
	id := c.p.int("stream_id")
	if err := c.p.err(); err != nil {
		return nil, err
	}
	return nil, c.api.svc.RemoveDefaultStream(c.user, id)
}

func deleteStream(c *call) (J, error) {
	id := c.p.pathInt("stream_id")
	if err := c.p.err(); err != nil {
		return nil, err
	}
	return nil, c.api.svc.DeleteStream(c.user, id)
}
