package bench

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net"
	"net/url"
	"strings"
	"time"
)

// phoneTopic is a person's ntfy subscription: where to subscribe.
type phoneTopic struct {
	Topic string `json:"topic"`
	Port  int    `json:"port"`
}

func (c *Client) phoneTopic() (phoneTopic, error) {
	var t phoneTopic
	if err := c.call("GET", "/api/v1/users/me/ntfy", nil, &t); err != nil {
		return t, err
	}
	if t.Port == 0 {
		return t, fmt.Errorf("the server serves no phone notifications")
	}
	return t, nil
}

// subscribePhone opens a JSON stream subscription as ntfy's app does and
// reads up to its open event.
func subscribePhone(t phoneTopic) (net.Conn, *bufio.Reader, error) {
	conn, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", t.Port))
	if err != nil {
		return nil, nil, err
	}
	fmt.Fprintf(conn, "GET /%s/json HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", t.Topic)
	r := bufio.NewReader(conn)
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			conn.Close()
			return nil, nil, err
		}
		if strings.HasPrefix(line, `{"id"`) && strings.Contains(line, `"event":"open"`) {
			return conn, r, nil
		}
	}
}

// PhoneLatency is the time from sending a direct message to alice until
// her subscribed phone reads its notification line, over sends messages
// sent one after another.
func PhoneLatency(srv *Server, sends int) (Latencies, error) {
	alice, err := Login(srv.URL, "alice@example.com")
	if err != nil {
		return Latencies{}, err
	}
	bob, err := Login(srv.URL, "bob@example.com")
	if err != nil {
		return Latencies{}, err
	}
	topic, err := alice.phoneTopic()
	if err != nil {
		return Latencies{}, err
	}
	conn, lines, err := subscribePhone(topic)
	if err != nil {
		return Latencies{}, err
	}
	defer conn.Close()
	heard := make(chan string, sends)
	go func() {
		for {
			line, err := lines.ReadString('\n')
			if err != nil {
				close(heard)
				return
			}
			var m struct{ Event, Message string }
			if json.Unmarshal([]byte(line), &m) == nil && m.Event == "message" {
				heard <- m.Message
			}
		}
	}()
	samples := make([]time.Duration, 0, sends)
	start := time.Now()
	for i := range sends {
		text := fmt.Sprintf("ping %d", i)
		sent := time.Now()
		if err := bob.call("POST", "/api/v1/messages", url.Values{"type": {"private"}, "to": {"alice@example.com"}, "content": {text}}, nil); err != nil {
			return Latencies{}, err
		}
		select {
		case got, ok := <-heard:
			if !ok || got != text {
				return Latencies{}, fmt.Errorf("the phone heard %q, want %q", got, text)
			}
		case <-time.After(10 * time.Second):
			return Latencies{}, fmt.Errorf("the phone did not hear %q", text)
		}
		samples = append(samples, time.Since(sent))
	}
	return summarize(samples, time.Since(start)), nil
}

// settle outlasts the host's wait before it hands back its garbage once
// allocation pauses (server.minReleaseGap).
const settle = 7 * time.Second

// IdlePhoneMemory is the server's resident memory growth over n idle phone
// subscriptions (JSON streams, past their open event; all alice's topic,
// as many phones of one person would be), each side measured once the host
// has idled for settle.
func IdlePhoneMemory(srv *Server, n int) (int64, error) {
	alice, err := Login(srv.URL, "alice@example.com")
	if err != nil {
		return 0, err
	}
	topic, err := alice.phoneTopic()
	if err != nil {
		return 0, err
	}
	// A first subscription warms what every one shares.
	first, _, err := subscribePhone(topic)
	if err != nil {
		return 0, err
	}
	defer first.Close()
	time.Sleep(settle)
	before, err := srv.Memory()
	if err != nil {
		return 0, err
	}
	conns := make([]net.Conn, 0, n)
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	for range n {
		conn, _, err := subscribePhone(topic)
		if err != nil {
			return 0, err
		}
		conns = append(conns, conn)
	}
	time.Sleep(settle)
	after, err := srv.Memory()
	if err != nil {
		return 0, err
	}
	return after.Anon - before.Anon, nil
}
