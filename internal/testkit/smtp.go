package testkit

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"io"
	"mime"
	"mime/multipart"
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

// Mail is a message an SMTPServer received: Body is its text (the text
// part of a multipart message), Attachments its files.
type Mail struct {
	To, Subject, Body string
	Attachments       []MailAttachment
}

// MailAttachment is a file attached to a received message, decoded.
type MailAttachment struct {
	Name, ContentType string
	Data              []byte
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
	subject, err := new(mime.WordDecoder).DecodeHeader(m.Header.Get("Subject"))
	if err != nil {
		subject = m.Header.Get("Subject")
	}
	got := Mail{To: rcpt, Subject: subject}
	mediaType, params, _ := mime.ParseMediaType(m.Header.Get("Content-Type"))
	if strings.HasPrefix(mediaType, "multipart/") {
		readParts(multipart.NewReader(m.Body, params["boundary"]), &got)
	} else {
		got.Body = string(decodePart(m.Body, m.Header.Get("Content-Transfer-Encoding")))
	}
	s.mu.Lock()
	s.msgs = append(s.msgs, got)
	s.mu.Unlock()
}

// readParts keeps a multipart message's text part as the body and its
// other parts as attachments.
func readParts(r *multipart.Reader, m *Mail) {
	for {
		p, err := r.NextPart()
		if err != nil {
			return
		}
		data := decodePart(p, p.Header.Get("Content-Transfer-Encoding"))
		ct := p.Header.Get("Content-Type")
		if mt, params, _ := mime.ParseMediaType(ct); strings.HasPrefix(mt, "multipart/") {
			readParts(multipart.NewReader(bytes.NewReader(data), params["boundary"]), m)
			continue
		}
		if name := p.FileName(); name != "" {
			m.Attachments = append(m.Attachments, MailAttachment{Name: name, ContentType: ct, Data: data})
		} else if strings.HasPrefix(ct, "text/plain") && m.Body == "" {
			m.Body = string(data)
		}
	}
}

// decodePart reads a part's body, undoing its transfer encoding.
func decodePart(r io.Reader, encoding string) []byte {
	switch strings.ToLower(encoding) {
	case "quoted-printable":
		r = quotedprintable.NewReader(r)
	case "base64":
		r = base64.NewDecoder(base64.StdEncoding, r)
	}
	b, _ := io.ReadAll(r)
	return b
}
