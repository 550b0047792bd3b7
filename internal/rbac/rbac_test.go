package rbac

import "testing"

func TestAllows(t *testing.T) {
	tests := []struct {
		name string
		role Role
		perm Permission
		want bool
	}{
		{"viewer reads catalog", Viewer, CatalogRead, true},
		{"viewer cannot write catalog", Viewer, CatalogWrite, false},
		{"staff writes catalog", Staff, CatalogWrite, true},
		{"staff cannot refund", Staff, RefundsWrite, false},
		{"admin refunds", Admin, RefundsWrite, true},
		{"admin cannot read audit", Admin, AuditRead, false},
		{"super admin reads audit", SuperAdmin, AuditRead, true},
		{"unknown role holds nothing", Role("root"), Self, false},
		{"empty role holds nothing", Role(""), CatalogRead, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Allows(tt.role, tt.perm); got != tt.want {
				t.Fatalf("Allows(%s, %s) = %v", tt.role, tt.perm.Name, got)
			}
		})
	}
}
