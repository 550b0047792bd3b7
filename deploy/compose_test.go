package deploy

import (
	"context"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/compose-spec/compose-go/v2/cli"
	"github.com/compose-spec/compose-go/v2/types"
	"github.com/gocommerce/shop/internal/config"
)

// loadCompose loads docker-compose.yml with the Compose specification's own
// loader, which validates it against the specification's schema.
func loadCompose(t *testing.T) *types.Project {
	t.Helper()
	opts, err := cli.NewProjectOptions([]string{"../docker-compose.yml"}, cli.WithWorkingDirectory(".."))
	if err != nil {
		t.Fatal(err)
	}
	p, err := opts.LoadProject(context.Background())
	if err != nil {
		t.Fatalf("docker-compose.yml: %v", err)
	}
	return p
}

var shopServices = map[string][]string{"migrate": {"migrate", "up"}, "api": {"api"}, "worker": {"worker"}, "scheduler": {"scheduler"}}

// composeEnv returns a service's environment as a map.
func composeEnv(s types.ServiceConfig) map[string]string {
	env := map[string]string{}
	for k, v := range s.Environment {
		if v != nil {
			env[k] = *v
		}
	}
	return env
}

// The laptop stack runs the image's processes in the order the chart does
// (migration first), with variables the chart also sets.
func TestComposeRunsTheStack(t *testing.T) {
	p := loadCompose(t)
	var names []string
	for name := range p.Services {
		names = append(names, name)
	}
	slices.Sort(names)
	if want := []string{"api", "migrate", "postgres", "redis", "s3", "scheduler", "worker"}; !slices.Equal(names, want) {
		t.Fatalf("services %v, want %v", names, want)
	}
	cfgValues, secretValues := chartValues(t)
	vars := configVars(t)
	uid, gid := imageUser(t)
	image := p.Services["api"].Image
	for name, command := range shopServices {
		s := p.Services[name]
		if s.Image != image || !strings.Contains(image, "shop") {
			t.Errorf("%s runs image %q, want the shop image %q", name, s.Image, image)
		}
		if !slices.Equal([]string(s.Command), command) {
			t.Errorf("%s runs %v, want %v", name, s.Command, command)
		}
		if s.User != "" && s.User != strconv.FormatInt(uid, 10)+":"+strconv.FormatInt(gid, 10) {
			t.Errorf("%s runs as %q, not the image's user", name, s.User)
		}
		if !s.ReadOnly || !slices.Contains(s.CapDrop, "ALL") {
			t.Errorf("%s: read_only %v, cap_drop %v; want a read-only root and every capability dropped, as in the chart", name, s.ReadOnly, s.CapDrop)
		}
		env := composeEnv(s)
		for k := range env {
			_, inConfig := cfgValues[k]
			_, inSecrets := secretValues[k]
			_, reserved := reservedVars[k]
			if !slices.Contains(vars, k) || !(inConfig || inSecrets || reserved) {
				t.Errorf("%s sets %s, which internal/config does not read or the chart cannot set", name, k)
			}
		}
		for _, k := range []string{"DATABASE_URL", "REDIS_URL", "ADMIN_JWT_SECRET", "CUSTOMER_JWT_SECRET", "GATEWAY_WEBHOOK_SECRET"} {
			if env[k] == "" {
				t.Errorf("%s does not set %s", name, k)
			}
		}
		shutdown, err := time.ParseDuration(env["SHUTDOWN_TIMEOUT"])
		if err != nil {
			t.Fatalf("%s: SHUTDOWN_TIMEOUT %q: %v", name, env["SHUTDOWN_TIMEOUT"], err)
		}
		if s.StopGracePeriod == nil || time.Duration(*s.StopGracePeriod) <= shutdown {
			t.Errorf("%s: stop_grace_period %v is not longer than SHUTDOWN_TIMEOUT %s", name, s.StopGracePeriod, shutdown)
		}
		if name == "migrate" {
			if dep, ok := s.DependsOn["postgres"]; !ok || dep.Condition != types.ServiceConditionHealthy {
				t.Errorf("migrate does not wait for a healthy postgres: %+v", s.DependsOn)
			}
			continue
		}
		if dep, ok := s.DependsOn["migrate"]; !ok || dep.Condition != types.ServiceConditionCompletedSuccessfully {
			t.Errorf("%s does not wait for the migration to succeed: %+v", name, s.DependsOn)
		}
	}

	api := p.Services["api"]
	port := composeEnv(api)["PORT"]
	if port == "" {
		port = "8080"
	}
	if len(api.Ports) != 1 || strconv.Itoa(int(api.Ports[0].Target)) != port {
		t.Errorf("api publishes %+v, want its PORT %s", api.Ports, port)
	}
}

// The development secrets of docker-compose.yml load in development, and
// each of them is refused in production, so a copy of them cannot run a
// real shop.
func TestComposeSecretsAreDevelopmentOnly(t *testing.T) {
	env := composeEnv(loadCompose(t).Services["api"])
	setEnv := func(override map[string]string) {
		for _, name := range configVars(t) {
			t.Setenv(name, "")
			os.Unsetenv(name)
		}
		for k, v := range env {
			t.Setenv(k, v)
		}
		for k, v := range override {
			t.Setenv(k, v)
		}
	}
	setEnv(nil)
	if _, err := config.Load(""); err != nil {
		t.Fatalf("the compose environment does not load: %v", err)
	}
	secrets := []string{"ADMIN_JWT_SECRET", "CUSTOMER_JWT_SECRET", "GATEWAY_WEBHOOK_SECRET", "S3_SECRET_ACCESS_KEY"}
	for _, name := range secrets {
		// Only this one from the file; the others strong and distinct.
		override := map[string]string{}
		for _, other := range secrets {
			if other != name {
				override[other] = "a-production-strength-secret-for-" + other
			}
		}
		setEnv(override)
		if _, err := config.Load(config.Production); err == nil || !strings.Contains(err.Error(), name) {
			t.Errorf("compose's %s in production: got %v, want a refusal naming it", name, err)
		}
	}
}
