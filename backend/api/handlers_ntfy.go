package api

// The person's phone notification subscription (backend/ntfy): the topic,
// and the port of the ntfy listener (0: the host serves none). Lanchat's
// own routes; Zulip's phones use its push bouncer instead.

func getNtfySubscription(c *call) (J, error) {
	topic, err := c.api.svc.NtfyTopic(c.user)
	if err != nil {
		return nil, err
	}
	return J{"topic": topic, "port": c.api.ntfyPort()}, nil
}

func regenerateNtfyTopic(c *call) (J, error) {
	topic, err := c.api.svc.RegenerateNtfyTopic(c.user)
	if err != nil {
		return nil, err
	}
	return J{"topic": topic, "port": c.api.ntfyPort()}, nil
}

func (a *API) ntfyPort() int {
	if a.opts.NtfyPort == nil {
		return 0
	}
	return a.opts.NtfyPort()
}
