package testkit

import (
	"bufio"
	"io"
	"mime"
	"mime/quotedprintable"
	"net"
	"net/mail"
	"strings"
	"sync"
	"testing"
)

// SMTPServer is a minimal SMTP server on a local port that keeps every
// message it accepts, for tests that check what the worker emailed.
type SMTPServer struct {
	ln   net.Listener
	mu   sync.Mutex
	msgs []Mail
}

// Mail is a message an SMTPServer received.
type Mail struct {
	To, Subject, Body string
}

// StartSMTP starts an SMTPServer that stops when tb ends.
func StartSMTP(tb testing.TB) *SMTPServer {
	tb.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	s := &SMTPServer{ln: ln}
	tb.Cleanup(func() { ln.Close() })
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			go s.serve(conn)
		}
	}()
	return s
}

// URL is the SMTP_URL of the server.
func (s *SMTPServer) URL() string { return "smtp://" + s.ln.Addr().String() }

// To returns the messages sent to rcpt so far.
func (s *SMTPServer) To(rcpt string) []Mail {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Mail
	for _, m := range s.msgs {
		if strings.EqualFold(m.To, rcpt) {
			out = append(out, m)
		}
	}
	return out
}

func (s *SMTPServer) serve(conn net.Conn) {
	defer conn.Close()
	r := bufio.NewReader(conn)
	say := func(line string) { io.WriteString(conn, line+"\r\n") }
	say("220 fake ESMTP")
	var rcpt string
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return
		}
		cmd := strings.ToUpper(strings.TrimSpace(line))
		switch {
		case strings.HasPrefix(cmd, "EHLO"), strings.HasPrefix(cmd, "HELO"):
			say("250 fake")
		case strings.HasPrefix(cmd, "RCPT TO:"):
			rcpt = strings.Trim(strings.TrimSpace(line)[len("RCPT TO:"):], "<> ")
			say("250 ok")
		case cmd == "DATA":
			say("354 go ahead")
			var data strings.Builder
			for {
				l, err := r.ReadString('\n')
				if err != nil {
					return
				}
				if l == ".\r\n" {
					break
				}
				data.WriteString(strings.TrimPrefix(l, "."))
			}
			s.keep(rcpt, data.String())
			say("250 queued")
		case cmd == "QUIT":
			say("221 bye")
			return
		default:
			say("250 ok")
		}
	}
}

// keep stores a received message with its subject and body decoded.
func (s *SMTPServer) keep(rcpt, raw string) {
	m, err := mail.ReadMessage(strings.NewReader(raw))
	if err != nil {
		return
	}
	body, _ := io.ReadAll(m.Body)
	if strings.EqualFold(m.Header.Get("Content-Transfer-Encoding"), "quoted-printable") {
		body, _ = io.ReadAll(quotedprintable.NewReader(strings.NewReader(string(body))))
	}
	subject, err := new(mime.WordDecoder).DecodeHeader(m.Header.Get("Subject"))
	if err != nil {
		subject = m.Header.Get("Subject")
	}
	s.mu.Lock()
	s.msgs = append(s.msgs, Mail{To: rcpt, Subject: subject, Body: string(body)})
	s.mu.Unlock()
}
