// Package mail sends the shop's emails, to customers and administrators:
// over SMTP (SMTP_URL, through github.com/wneessen/go-mail) when configured,
// else into the log, so a local run needs no mail server. Outbox sends the
// emails that services write as rows of the email tables, each once.
package mail

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"net/url"
	"strconv"
	"strings"
	"time"

	gomail "github.com/wneessen/go-mail"
)

// Message is one plain-text email.
type Message struct {
	To      string
	Subject string
	Body    string
	// Secret marks a body carrying a credential (a claim link): the log
	// sender never writes such a body outside development.
	Secret bool
	// Attachments are files sent with the body (a shipment's tax invoice).
	Attachments []Attachment
}

// Attachment is a file attached to a message.
type Attachment struct {
	Name        string
	ContentType string
	Data        []byte
}

// Sender sends messages. Errors wrap the cause; callers retry.
type Sender interface {
	Send(ctx context.Context, m Message) error
}

// SendTimeout bounds one delivery to the mail server, connection included.
const SendTimeout = 20 * time.Second

// New returns the SMTP sender for smtpURL (smtp://user:pass@host:port, or
// smtps:// for implicit TLS), or the log sender when smtpURL is empty. dev
// lets the log sender write secret bodies, so a claim link can be followed
// locally.
//
// A message without a recipient (a customer known only by phone: a guest
// of a phone order) is dropped by both without an error, as if sent: every
// email of an order (confirmation, payment link, invoice, tracking) goes
// through a Sender, so none of them fails a task or an outbox row for it,
// and the SMS and WhatsApp messages go by phone as before.
func New(smtpURL, from string, log *slog.Logger, dev bool) (Sender, error) {
	s, err := newSender(smtpURL, from, log, dev)
	if err != nil {
		return nil, err
	}
	return SkipNoRecipient(s), nil
}

// SkipNoRecipient wraps s so that a message whose To is empty is dropped:
// Send returns nil without sending it.
func SkipNoRecipient(s Sender) Sender { return skipNoRecipient{s} }

type skipNoRecipient struct{ Sender }

func (s skipNoRecipient) Send(ctx context.Context, m Message) error {
	if strings.TrimSpace(m.To) == "" {
		return nil
	}
	return s.Sender.Send(ctx, m)
}

func newSender(smtpURL, from string, log *slog.Logger, dev bool) (Sender, error) {
	if smtpURL == "" {
		return &LogSender{Log: log, Dev: dev}, nil
	}
	u, err := url.Parse(smtpURL)
	if err != nil {
		return nil, fmt.Errorf("mail: SMTP_URL: %w", err)
	}
	opts := []gomail.Option{gomail.WithTimeout(SendTimeout)}
	port := 587
	if u.Scheme == "smtps" {
		port = 465
		opts = append(opts, gomail.WithSSL())
	} else {
		opts = append(opts, gomail.WithTLSPolicy(gomail.TLSOpportunistic))
	}
	if p := u.Port(); p != "" {
		if port, err = strconv.Atoi(p); err != nil {
			return nil, fmt.Errorf("mail: SMTP_URL port: %w", err)
		}
	}
	opts = append(opts, gomail.WithPort(port))
	if u.User != nil && u.User.Username() != "" {
		pw, _ := u.User.Password()
		opts = append(opts, gomail.WithSMTPAuth(gomail.SMTPAuthAutoDiscover),
			gomail.WithUsername(u.User.Username()), gomail.WithPassword(pw))
	}
	return &SMTPSender{host: u.Hostname(), opts: opts, from: from}, nil
}

// SMTPSender delivers through an SMTP server, one connection per message.
type SMTPSender struct {
	host string
	opts []gomail.Option
	from string
}

// Send delivers m within SendTimeout.
func (s *SMTPSender) Send(ctx context.Context, m Message) error {
	msg := gomail.NewMsg()
	if err := msg.From(s.from); err != nil {
		return fmt.Errorf("mail.from: %w", err)
	}
	if err := msg.To(m.To); err != nil {
		return fmt.Errorf("mail.to: %w", err)
	}
	msg.Subject(m.Subject)
	msg.SetBodyString(gomail.TypeTextPlain, m.Body)
	for _, a := range m.Attachments {
		if err := msg.AttachReader(a.Name, bytes.NewReader(a.Data), gomail.WithFileContentType(gomail.ContentType(a.ContentType))); err != nil {
			return fmt.Errorf("mail.attach: %w", err)
		}
	}
	client, err := gomail.NewClient(s.host, s.opts...)
	if err != nil {
		return fmt.Errorf("mail.client: %w", err)
	}
	ctx, cancel := context.WithTimeout(ctx, SendTimeout)
	defer cancel()
	if err := client.DialAndSendWithContext(ctx, msg); err != nil {
		return fmt.Errorf("mail.send: %w", err)
	}
	return nil
}

// LogSender writes messages to the log instead of sending them.
type LogSender struct {
	Log *slog.Logger
	// Dev allows secret bodies in the log.
	Dev bool
}

// Send logs m. Outside development a secret body is withheld: a token in a
// production log is a token anyone with log access can use.
func (s *LogSender) Send(ctx context.Context, m Message) error {
	body := m.Body
	if m.Secret && !s.Dev {
		body = "(withheld: carries a credential; set SMTP_URL to deliver it)"
	}
	s.Log.InfoContext(ctx, "email not sent: SMTP_URL is unset", "to", m.To, "subject", m.Subject, "body", body,
		"attachments", len(m.Attachments))
	return nil
}
