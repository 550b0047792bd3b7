package stock_test

import "time"

func ptr[T any](v T) *T { return &v }

func timeNow() time.Time { return time.Now().Add(time.Hour) }
