package tasks

import (
	"time"

	"github.com/hibiken/asynq"
)

// TypePasswordResetEmails sends the unsent password reset emails
// (customer_emails of kind password_reset); each reset token is made as its
// email is sent, so the task carries nothing.
const TypePasswordResetEmails = "email:password_reset"

// NewPasswordResetEmailsTask builds the run that sends the unsent password
// reset emails. key names the request that asked for it, so every request
// gets its own run however close together they come (a shopper is waiting
// for the email); the scheduler's sweep replaces it with a tick id.
func NewPasswordResetEmailsTask(key string) (*asynq.Task, []asynq.Option) {
	return asynq.NewTask(TypePasswordResetEmails, nil), []asynq.Option{
		asynq.Queue(QueueDefault),
		asynq.TaskID(TypePasswordResetEmails + ":" + key),
		asynq.MaxRetry(8),
		asynq.Timeout(time.Minute),
		asynq.Retention(time.Hour),
	}
}
