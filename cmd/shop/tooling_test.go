package main_test

import (
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/gocommerce/shop/internal/testkit"
)

// toolEnv is the environment of someone who set only where the stores are:
// no APP_ENV (so production) and no secret.
func toolEnv(extra ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		switch name {
		case "APP_ENV", "ADMIN_JWT_SECRET", "CUSTOMER_JWT_SECRET", "GATEWAY_WEBHOOK_SECRET", "DATABASE_URL", "REDIS_URL", "CACHE_REDIS_URL":
			continue
		}
		env = append(env, kv)
	}
	return append(env, extra...)
}

func run(t *testing.T, env []string, args ...string) (string, error) {
	t.Helper()
	cmd := exec.Command(shopBin, args...)
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// Commands that sign no token run in production mode without the token
// secrets: migrations, creating the first administrator, seeding.
func TestOneOffCommandsNeedNoTokenSecrets(t *testing.T) {
	db, dbURL := testkit.MustDB(t)
	_, redisURL := testkit.MustRedis(t)
	env := toolEnv("DATABASE_URL="+dbURL, "REDIS_URL="+redisURL, "LOG_LEVEL=warn")
	for _, args := range [][]string{
		{"migrate", "up"},
		{"migrate"},
		{"migrate", "status"},
		{"admin", "create", "--email", "owner@example.com", "--password", "correct-horse-battery", "--role", "super_admin"},
		{"seed", "--products", "2", "--variants", "1"},
	} {
		out, err := run(t, env, args...)
		if err != nil {
			t.Fatalf("shop %s without APP_ENV or secrets: %v\n%s", strings.Join(args, " "), err, out)
		}
		if args[0] == "migrate" && len(args) == 2 && args[1] == "status" && strings.Contains(out, "pending") {
			t.Fatalf("migrate status after migrate up lists a pending migration:\n%s", out)
		}
	}
	var role string
	db.Raw(`SELECT role FROM admins WHERE email = 'owner@example.com'`).Scan(&role)
	if role != "super_admin" {
		t.Fatalf("admin create made no super_admin (role %q)", role)
	}
}

// A process that signs tokens still refuses to start without them, and the
// one line says what to set and how.
func TestServingWithoutSecretsSaysWhatToSet(t *testing.T) {
	out, err := run(t, toolEnv("LOG_LEVEL=warn"), "api")
	if err == nil {
		t.Fatal("shop api started in production without ADMIN_JWT_SECRET")
	}
	line := strings.TrimSpace(out)
	if strings.Contains(line, "\n") || !strings.Contains(line, "ADMIN_JWT_SECRET must be set") ||
		!strings.Contains(line, "openssl rand") || !strings.Contains(line, "APP_ENV=development") {
		t.Fatalf("want one line saying how to set ADMIN_JWT_SECRET, got:\n%s", out)
	}
}

// gateway simulate reads an unset APP_ENV as production like every other
// command: it needs the webhook secret, and says so and how.
func TestGatewaySimulateWithoutSecretSaysWhatToSet(t *testing.T) {
	out, err := run(t, toolEnv(), "gateway", "simulate", "payment.captured", "--order-id", "order_sim_x", "--amount", "100", "--url", "http://127.0.0.1:9/")
	if err == nil || !strings.Contains(out, "GATEWAY_WEBHOOK_SECRET must be set") || !strings.Contains(out, "APP_ENV=development") {
		t.Fatalf("want an error naming GATEWAY_WEBHOOK_SECRET and APP_ENV=development, got %v:\n%s", err, out)
	}
}

// Each migrate subcommand prints its own help.
func TestMigrateSubcommandsHaveTheirOwnHelp(t *testing.T) {
	helps := map[string]string{
		"up":     "Applies every migration not yet applied",
		"down":   "Rolls back the one most recently applied migration",
		"status": "Lists the migrations built into this binary",
	}
	for sub, want := range helps {
		out, err := run(t, toolEnv(), "migrate", sub, "--help")
		if err != nil || !strings.Contains(out, want) || !strings.Contains(out, "shop migrate "+sub) {
			t.Errorf("migrate %s --help: %v\n%s", sub, err, out)
		}
		for other, text := range helps {
			if other != sub && strings.Contains(out, text) {
				t.Errorf("migrate %s --help prints the help of migrate %s:\n%s", sub, other, out)
			}
		}
	}
	if out, err := run(t, toolEnv(), "migrate", "sideways"); err == nil {
		t.Fatalf("migrate sideways succeeded:\n%s", out)
	}
}
