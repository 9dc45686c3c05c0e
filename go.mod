module lanchat

go 1.26.0

require (
	github.com/alecthomas/chroma/v2 v2.27.0
	github.com/gorilla/websocket v1.5.3
	github.com/yuin/goldmark v1.8.7
	go.etcd.io/bbolt v1.5.0
	golang.org/x/crypto v0.58.0
	golang.org/x/net v0.62.0
)

require (
	github.com/dlclark/regexp2/v2 v2.2.1 // indirect
	golang.org/x/sys v0.49.0 // indirect
)
