package api

import "lanchat/backend/domain"

func addAPNsDevice(c *call) (J, error) {
	token, appID := c.p.str("token"), c.p.str("appid")
	if err := c.p.err(); err != nil {
		return nil, err
	}
	return nil, c.api.svc.AddPushDevice(c.user, domain.PushDeviceAPNs, token, appID)
}

func removeAPNsDevice(c *call) (J, error) {
	token := c.p.str("token")
	if err := c.p.err(); err != nil {
		return nil, err
	}
	return nil, c.api.svc.RemovePushDevice(c.user, domain.PushDeviceAPNs, token)
}

func addFCMDevice(c *call) (J, error) {
	token := c.p.str("token")
	if err := c.p.err(); err != nil {
		return nil, err
	}
	return nil, c.api.svc.AddPushDevice(c.user, domain.PushDeviceFCM, token, "")
}

func removeFCMDevice(c *call) (J, error) {
	token := c.p.str("token")
	if err := c.p.err(); err != nil {
		return nil, err
	}
	return nil, c.api.svc.RemovePushDevice(c.user, domain.PushDeviceFCM, token)
}

func sendTestPushNotification(c *call) (J, error) {
	var token *string
	if t, ok := c.p.raw("token"); ok {
		token = &t
	}
	if err := c.p.err(); err != nil {
		return nil, err
	}
	return nil, c.api.svc.SendTestPushNotification(c.user, token)
}
