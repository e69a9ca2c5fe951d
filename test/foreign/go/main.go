package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"
)

// deviation switches
var devs = map[string]bool{}

func dev(id string) bool { return devs["all"] || devs[id] }

func parseDevs(s string) {
	for _, p := range strings.Split(s, ",") {
		p = strings.TrimSpace(p)
		if p == "" {
			continue
		}
		devs[strings.ToUpper(p)] = true
		if strings.EqualFold(p, "all") {
			devs["all"] = true
		}
	}
}

// Server bundles the store and the start time.
type Server struct {
	st *Store
}

func newServer(start time.Time) *Server {
	return &Server{st: seedStore(start)}
}

func run(port string, keysFile string, ready func(addr string)) (*http.Server, net.Listener, error) {
	srv := newServer(time.Now().UTC())
	if keysFile != "" {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		enc.Encode(srv.st.keyNames)
		if err := os.WriteFile(keysFile, buf.Bytes(), 0o600); err != nil {
			return nil, nil, err
		}
	}
	ln, err := net.Listen("tcp", "127.0.0.1:"+port)
	if err != nil {
		return nil, nil, err
	}
	hs := &http.Server{Handler: srv, ReadHeaderTimeout: 10 * time.Second}
	go hs.Serve(ln)
	if ready != nil {
		ready(fmt.Sprintf("http://127.0.0.1:%d", ln.Addr().(*net.TCPAddr).Port))
	}
	return hs, ln, nil
}

func main() {
	parseDevs(os.Getenv("DEVIATIONS"))
	port := os.Getenv("PORT")
	if port == "" {
		port = "0"
	}
	keysFile := os.Getenv("KEYS_FILE")
	if keysFile == "" {
		keysFile = "keys.json"
	}
	hs, _, err := run(port, keysFile, func(addr string) {
		fmt.Printf("listening %s\n", addr)
		os.Stdout.Sync()
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, "error:", err)
		os.Exit(1)
	}
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGTERM, syscall.SIGINT)
	<-sig
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	hs.Shutdown(ctx)
}
