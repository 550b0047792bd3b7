package database

import (
	"github.com/google/uuid"
	"github.com/jackc/pgx/v5/pgtype"
	pgxuuid "github.com/vgarvardt/pgx-google-uuid/v5"
)

// registerUUID makes pgx send uuid.UUID and *uuid.UUID arguments as the 16
// bytes they are. By default pgx takes them as driver.Valuers: the value's
// text, which it then fails to encode as a binary uuid (the failure is an
// error built with fmt), parses back and encodes, several times the work of
// sending the bytes, on every uuid argument of every statement (the figures
// are in docs/BENCHMARKS.md, "Figures behind code comments"). Reading is unchanged:
// database/sql receives uuids as text.
func registerUUID(m *pgtype.Map) {
	pgxuuid.Register(m)
	m.TryWrapEncodePlanFuncs = append([]pgtype.TryWrapEncodePlanFunc{tryWrapUUIDPointer}, m.TryWrapEncodePlanFuncs...)
}

// tryWrapUUIDPointer dereferences a non-nil *uuid.UUID (a nil one is NULL
// before any plan), which pgx would otherwise take as a driver.Valuer too.
func tryWrapUUIDPointer(value any) (pgtype.WrappedEncodePlanNextSetter, any, bool) {
	if p, ok := value.(*uuid.UUID); ok && p != nil {
		return &derefUUIDPlan{}, *p, true
	}
	return nil, nil, false
}

type derefUUIDPlan struct{ next pgtype.EncodePlan }

func (p *derefUUIDPlan) SetNext(next pgtype.EncodePlan) { p.next = next }

func (p *derefUUIDPlan) Encode(value any, buf []byte) ([]byte, error) {
	return p.next.Encode(*value.(*uuid.UUID), buf)
}
