package deploy

import (
	"context"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gocommerce/shop/internal/config"
	"github.com/gocommerce/shop/internal/testkit"
	"github.com/gocommerce/shop/tasks"
	"github.com/hibiken/asynq"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
)

func TestChartLintsClean(t *testing.T) {
	for _, extra := range [][]string{nil, {"--set", "worker.keda.enabled=true", "--set", "worker.keda.redis.address=redis:6379"}} {
		args := append([]string{"lint", "--strict", chartDir, "--kube-version", kubeVersion, "-f", testValues}, extra...)
		out, err := exec.Command(helm(t), args...).CombinedOutput()
		if err != nil {
			t.Fatalf("helm %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
}

// Every variable internal/config reads can be set through the chart's
// values, reaches every process (and the migration) with the value given,
// and is listed in values.yaml, secret ones under `secrets`.
func TestEveryConfigVariableIsSettable(t *testing.T) {
	vars := configVars(t)
	cfgValues, secretValues := chartValues(t)
	for _, name := range vars {
		_, inConfig := cfgValues[name]
		_, inSecrets := secretValues[name]
		_, reserved := reservedVars[name]
		if !inConfig && !inSecrets && !reserved {
			t.Errorf("%s (read by internal/config) is not in the chart's values.yaml: add it under config or secrets", name)
		}
		if inConfig && inSecrets {
			t.Errorf("%s is under both config and secrets in values.yaml", name)
		}
	}
	for name := range cfgValues {
		if !slices.Contains(vars, name) {
			t.Errorf("values.yaml config.%s is not read by internal/config", name)
		}
	}
	for name := range secretValues {
		if !slices.Contains(vars, name) {
			t.Errorf("values.yaml secrets.%s is not read by internal/config", name)
		}
	}

	// Set each to a value of its own and find it in every container.
	want := map[string]string{"PORT": "18123", "SHUTDOWN_TIMEOUT": "17s"}
	cfg, sec := map[string]any{}, map[string]any{}
	for _, name := range vars {
		if _, ok := reservedVars[name]; ok {
			continue
		}
		if _, ok := secretValues[name]; ok {
			sec[name] = "secret-" + name
			want[name] = "secret-" + name
		} else {
			cfg[name] = "value-" + name
			want[name] = "value-" + name
		}
	}
	r := render(t, map[string]any{
		"config": cfg, "secrets": sec, "shutdownTimeoutSeconds": 17,
		"api": map[string]any{"port": 18123},
	})
	for component, spec := range r.podSpecs(t) {
		got, missing := r.env(spec.Containers[0])
		if len(missing) > 0 {
			t.Errorf("%s: refers to %v, which the chart does not render", component, missing)
		}
		for name, v := range want {
			if got[name] != v {
				t.Errorf("%s: %s = %q, want %q", component, name, got[name], v)
			}
		}
	}
	// Secrets never land in a ConfigMap.
	for _, cm := range r.configMaps {
		for name := range secretValues {
			if _, ok := cm.Data[name]; ok {
				t.Errorf("ConfigMap %s holds the secret %s", cm.Name, name)
			}
		}
	}
	if _, err := renderErr(t, map[string]any{"config": map[string]any{"DATABASE_URL": "postgres://x"}}); err == nil ||
		!strings.Contains(err.Error(), "config.DATABASE_URL is a secret") {
		t.Errorf("a secret under config: got %v, want a refusal naming it", err)
	}
	if _, err := renderErr(t, map[string]any{"config": map[string]any{"PORT": "9000"}}); err == nil ||
		!strings.Contains(err.Error(), "set api.port instead") {
		t.Errorf("PORT under config: got %v, want a refusal naming api.port", err)
	}
}

// The chart's default configuration with the test secrets is one the
// service accepts: each process's environment passes config.Load.
func TestRenderedEnvironmentLoads(t *testing.T) {
	r := render(t)
	for component, spec := range r.podSpecs(t) {
		got, _ := r.env(spec.Containers[0])
		for _, name := range configVars(t) {
			t.Setenv(name, "")
			os.Unsetenv(name)
		}
		for k, v := range got {
			t.Setenv(k, v)
		}
		cfg, err := config.Load("")
		if err != nil {
			t.Fatalf("%s: the rendered environment does not load: %v", component, err)
		}
		if cfg.AppEnv != config.Production {
			t.Errorf("%s: APP_ENV = %s, want production", component, cfg.AppEnv)
		}
	}
}

func TestChartRequiresSecretsOrExistingSecret(t *testing.T) {
	out, err := exec.Command(helm(t), "template", "shop", chartDir, "--kube-version", kubeVersion).CombinedOutput()
	if err == nil || !strings.Contains(string(out), "secrets.DATABASE_URL is required") {
		t.Fatalf("rendering without secrets: err %v, output:\n%s\nwant a refusal naming secrets.DATABASE_URL", err, out)
	}
	args := []string{"template", "shop", chartDir, "--kube-version", kubeVersion, "--set", "existingSecret=shop-keys"}
	r, err := runTemplate(t, args)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.secrets) != 0 {
		t.Errorf("with existingSecret the chart still renders %d Secrets", len(r.secrets))
	}
	for component, spec := range r.podSpecs(t) {
		var refs []string
		for _, from := range spec.Containers[0].EnvFrom {
			if from.SecretRef != nil {
				refs = append(refs, from.SecretRef.Name)
			}
		}
		if !slices.Equal(refs, []string{"shop-keys"}) {
			t.Errorf("%s reads Secrets %v, want [shop-keys]", component, refs)
		}
	}
}

// The api's probes are /readyz (readiness) and /healthz (liveness, startup)
// on its port, and the api answers each with 200.
func TestProbePathsExistInAPI(t *testing.T) {
	r := render(t)
	api := r.deployment(t, "api")
	c := api.Spec.Template.Spec.Containers[0]
	env, _ := r.env(c)
	if len(c.Ports) != 1 || c.Ports[0].Name != "http" || strconv.Itoa(int(c.Ports[0].ContainerPort)) != env["PORT"] {
		t.Fatalf("api ports %+v, PORT %q: want one port named http on PORT", c.Ports, env["PORT"])
	}
	probes := map[string]*corev1.Probe{"readiness": c.ReadinessProbe, "liveness": c.LivenessProbe, "startup": c.StartupProbe}
	wantPath := map[string]string{"readiness": "/readyz", "liveness": "/healthz", "startup": "/healthz"}
	app := testkit.MustApp(t)
	for kind, p := range probes {
		if p == nil || p.HTTPGet == nil {
			t.Errorf("api has no HTTP %s probe", kind)
			continue
		}
		if p.HTTPGet.Path != wantPath[kind] || p.HTTPGet.Port.String() != "http" {
			t.Errorf("%s probe: GET %s on port %s, want %s on http", kind, p.HTTPGet.Path, p.HTTPGet.Port.String(), wantPath[kind])
		}
		testkit.Do(t, http.MethodGet, app.URL+p.HTTPGet.Path, testkit.Req{}).Expect(t, http.StatusOK)
	}
	// The worker and the scheduler serve only METRICS_ADDR (/metrics and
	// /healthz, cmd/shop TestWorkerServesMetrics): one port there, probed for
	// liveness on /healthz, and no readiness (they take no traffic).
	for _, component := range []string{"worker", "scheduler"} {
		c := r.deployment(t, component).Spec.Template.Spec.Containers[0]
		env, _ := r.env(c)
		addr := env["METRICS_ADDR"]
		if len(c.Ports) != 1 || c.Ports[0].Name != "metrics" || !strings.HasSuffix(addr, ":"+strconv.Itoa(int(c.Ports[0].ContainerPort))) {
			t.Errorf("%s ports %+v, METRICS_ADDR %q: want one port named metrics on METRICS_ADDR's port", component, c.Ports, addr)
		}
		if p := c.LivenessProbe; p == nil || p.HTTPGet == nil || p.HTTPGet.Path != "/healthz" || p.HTTPGet.Port.String() != "metrics" {
			t.Errorf("%s liveness probe %+v, want GET /healthz on metrics", component, p)
		}
		if c.ReadinessProbe != nil || c.StartupProbe != nil {
			t.Errorf("%s has a readiness or startup probe, but takes no traffic", component)
		}
	}
}

func TestProcessesRunTheirSubcommands(t *testing.T) {
	r := render(t)
	for component, args := range map[string][]string{"api": {"api"}, "worker": {"worker"}, "scheduler": {"scheduler"}} {
		if got := r.deployment(t, component).Spec.Template.Spec.Containers[0].Args; !slices.Equal(got, args) {
			t.Errorf("%s runs %v, want %v", component, got, args)
		}
	}
	if got := r.migrationJob(t).Spec.Template.Spec.Containers[0].Args; !slices.Equal(got, []string{"migrate", "up"}) {
		t.Errorf("the migration runs %v, want [migrate up]", got)
	}
}

func TestSchedulerRunsTwoReplicas(t *testing.T) {
	d := render(t).deployment(t, "scheduler")
	if d.Spec.Replicas == nil || *d.Spec.Replicas != 2 {
		t.Fatalf("scheduler replicas %s, want 2", ptrString(d.Spec.Replicas))
	}
}

// The migration is a pre-install and pre-upgrade hook: Helm runs it, and
// waits for it, before it creates or changes the Deployments. The
// configuration it reads exists by then: hooks of their own, created first.
func TestMigrationJobRunsBeforeRollout(t *testing.T) {
	r := render(t)
	job := r.migrationJob(t)
	hooks := strings.Split(job.Annotations["helm.sh/hook"], ",")
	if !slices.Contains(hooks, "pre-install") || !slices.Contains(hooks, "pre-upgrade") {
		t.Fatalf("migration Job hooks %v, want pre-install and pre-upgrade", hooks)
	}
	if job.Spec.Template.Spec.RestartPolicy != corev1.RestartPolicyNever {
		t.Errorf("migration restartPolicy %s, want Never", job.Spec.Template.Spec.RestartPolicy)
	}
	jobWeight, _ := strconv.Atoi(job.Annotations["helm.sh/hook-weight"])
	for _, from := range job.Spec.Template.Spec.Containers[0].EnvFrom {
		var meta metav1.ObjectMeta
		switch {
		case from.ConfigMapRef != nil && r.configMaps[from.ConfigMapRef.Name] != nil:
			meta = r.configMaps[from.ConfigMapRef.Name].ObjectMeta
		case from.SecretRef != nil && r.secrets[from.SecretRef.Name] != nil:
			meta = r.secrets[from.SecretRef.Name].ObjectMeta
		default:
			t.Fatalf("migration reads %+v, which the chart does not render", from)
		}
		weight, _ := strconv.Atoi(meta.Annotations["helm.sh/hook-weight"])
		if meta.Annotations["helm.sh/hook"] != job.Annotations["helm.sh/hook"] || weight >= jobWeight {
			t.Errorf("%s is not a hook created before the migration Job (hook %q, weight %d; Job weight %d)",
				meta.Name, meta.Annotations["helm.sh/hook"], weight, jobWeight)
		}
	}
	// The migration sees the configuration the processes see.
	jobEnv, _ := r.env(job.Spec.Template.Spec.Containers[0])
	apiEnv, _ := r.env(r.deployment(t, "api").Spec.Template.Spec.Containers[0])
	for k, v := range apiEnv {
		if jobEnv[k] != v {
			t.Errorf("migration %s = %q, api has %q", k, jobEnv[k], v)
		}
	}
}

// Kubernetes waits longer than the service's own shutdown limit (plus the
// api's preStop pause) before it kills a process.
func TestGracefulTerminationOutlastsShutdownTimeout(t *testing.T) {
	for _, v := range []map[string]any{
		{},
		{"shutdownTimeoutSeconds": 120, "api": map[string]any{"preStopSleepSeconds": 0}},
		{"shutdownTimeoutSeconds": 3, "terminationGraceMarginSeconds": 1, "api": map[string]any{"preStopSleepSeconds": 10}},
	} {
		r := render(t, v)
		for component, spec := range r.podSpecs(t) {
			c := spec.Containers[0]
			env, _ := r.env(c)
			shutdown, err := time.ParseDuration(env["SHUTDOWN_TIMEOUT"])
			if err != nil {
				t.Fatalf("%s: SHUTDOWN_TIMEOUT %q: %v", component, env["SHUTDOWN_TIMEOUT"], err)
			}
			var preStop time.Duration
			if c.Lifecycle != nil && c.Lifecycle.PreStop != nil && c.Lifecycle.PreStop.Sleep != nil {
				preStop = time.Duration(c.Lifecycle.PreStop.Sleep.Seconds) * time.Second
			}
			if spec.TerminationGracePeriodSeconds == nil {
				t.Fatalf("%s: no terminationGracePeriodSeconds", component)
			}
			grace := time.Duration(*spec.TerminationGracePeriodSeconds) * time.Second
			if grace <= shutdown+preStop {
				t.Errorf("values %v: %s terminationGracePeriodSeconds %s is not longer than SHUTDOWN_TIMEOUT %s + preStop %s",
					v, component, grace, shutdown, preStop)
			}
		}
	}
}

func TestChartRefusesNoGraceMargin(t *testing.T) {
	if _, err := renderErr(t, map[string]any{"terminationGraceMarginSeconds": 0}); err == nil ||
		!strings.Contains(err.Error(), "terminationGraceMarginSeconds must be at least 1") {
		t.Fatalf("margin 0: got %v, want a refusal", err)
	}
}

// Every pod runs as the image's numeric non-root user, with no privilege
// escalation, no capabilities, a read-only root and no API token.
func TestContainersRunAsNonRoot(t *testing.T) {
	uid, gid := imageUser(t)
	if uid == 0 || gid == 0 {
		t.Fatalf("the Containerfile runs as %d:%d", uid, gid)
	}
	r := render(t)
	for component, spec := range r.podSpecs(t) {
		psc := spec.SecurityContext
		if psc == nil || psc.RunAsNonRoot == nil || !*psc.RunAsNonRoot || psc.RunAsUser == nil || *psc.RunAsUser != uid ||
			psc.RunAsGroup == nil || *psc.RunAsGroup != gid {
			t.Errorf("%s pod securityContext %+v: want runAsNonRoot and the image's %d:%d", component, psc, uid, gid)
		}
		if spec.AutomountServiceAccountToken == nil || *spec.AutomountServiceAccountToken {
			t.Errorf("%s mounts a service account token", component)
		}
		for _, c := range spec.Containers {
			sc := c.SecurityContext
			if sc == nil || sc.AllowPrivilegeEscalation == nil || *sc.AllowPrivilegeEscalation ||
				sc.ReadOnlyRootFilesystem == nil || !*sc.ReadOnlyRootFilesystem ||
				sc.Capabilities == nil || !slices.Contains(sc.Capabilities.Drop, "ALL") || len(sc.Capabilities.Add) > 0 ||
				(sc.Privileged != nil && *sc.Privileged) || (sc.RunAsUser != nil && *sc.RunAsUser == 0) {
				t.Errorf("%s container securityContext %+v: want no escalation, read-only root, capabilities dropped", component, sc)
			}
			if c.Resources.Requests.Memory().IsZero() || c.Resources.Limits.Memory().IsZero() {
				t.Errorf("%s has no memory request or limit", component)
			}
		}
	}
}

// The api scales on CPU within a disruption budget; each budget and the
// Service select their own component's pods and no other's.
func TestAPIAutoscalesWithinDisruptionBudget(t *testing.T) {
	r := render(t)
	api := r.deployment(t, "api")
	if api.Spec.Replicas != nil {
		t.Errorf("api Deployment sets replicas %d while the HPA scales it", *api.Spec.Replicas)
	}
	if len(r.hpas) != 1 || r.hpas[0].Spec.ScaleTargetRef.Kind != "Deployment" || r.hpas[0].Spec.ScaleTargetRef.Name != api.Name {
		t.Fatalf("HPAs %+v: want one on Deployment %s", r.hpas, api.Name)
	}
	if *r.hpas[0].Spec.MinReplicas < 2 {
		t.Errorf("api HPA minReplicas %d: one pod cannot be drained without an outage", *r.hpas[0].Spec.MinReplicas)
	}
	matches := func(sel *metav1.LabelSelector, component string) bool {
		s, err := metav1.LabelSelectorAsSelector(sel)
		if err != nil {
			t.Fatal(err)
		}
		return s.Matches(labels.Set(r.deployment(t, component).Spec.Template.Labels))
	}
	covered := map[string]bool{}
	for _, pdb := range r.pdbs {
		for component := range r.deployments {
			want := pdb.Name == "shop-"+component
			if matches(pdb.Spec.Selector, component) != want {
				t.Errorf("PodDisruptionBudget %s selects %s pods: %v", pdb.Name, component, !want)
			}
			covered[component] = covered[component] || want
		}
	}
	for _, component := range []string{"api", "worker", "scheduler"} {
		if !covered[component] {
			t.Errorf("no PodDisruptionBudget for %s", component)
		}
	}
	if len(r.services) != 1 {
		t.Fatalf("%d Services rendered, want the api's", len(r.services))
	}
	for component := range r.deployments {
		want := component == "api"
		if got := matches(&metav1.LabelSelector{MatchLabels: r.services[0].Spec.Selector}, component); got != want {
			t.Errorf("the api Service selects %s pods: %v", component, got)
		}
	}
	if r.services[0].Spec.Ports[0].TargetPort.String() != "http" {
		t.Errorf("the api Service targets port %s, want http", r.services[0].Spec.Ports[0].TargetPort.String())
	}

	fixed := render(t, map[string]any{"api": map[string]any{"autoscaling": map[string]any{"enabled": false}, "replicas": 3}})
	if d := fixed.deployment(t, "api"); d.Spec.Replicas == nil || *d.Spec.Replicas != 3 || len(fixed.hpas) != 0 {
		t.Errorf("autoscaling off: replicas %s and %d HPAs, want 3 and none", ptrString(d.Spec.Replicas), len(fixed.hpas))
	}
}

// With KEDA on, the worker scales on the pending lists of the asynq queues
// it drains, and those lists are where asynq keeps pending tasks: a task
// enqueued on each queue shows up in the list the ScaledObject watches.
func TestWorkerScalesOnAsynqQueueDepth(t *testing.T) {
	if _, err := renderErr(t, map[string]any{"worker": map[string]any{"keda": map[string]any{"enabled": true}}}); err == nil ||
		!strings.Contains(err.Error(), "worker.keda.redis.address") {
		t.Errorf("KEDA without a Redis address: got %v, want a refusal naming worker.keda.redis.address", err)
	}
	r := render(t, map[string]any{"worker": map[string]any{"keda": map[string]any{"enabled": true, "redis": map[string]any{
		"address": "redis:6379", "passwordSecret": map[string]any{"name": "redis", "key": "password"}}}}})
	worker := r.deployment(t, "worker")
	if worker.Spec.Replicas != nil {
		t.Errorf("worker Deployment sets replicas %d while KEDA scales it", *worker.Spec.Replicas)
	}
	var so, auth map[string]any
	for _, o := range r.custom {
		switch o["kind"] {
		case "ScaledObject":
			so = o
		case "TriggerAuthentication":
			auth = o
		}
	}
	if so == nil || auth == nil {
		t.Fatalf("KEDA on: want a ScaledObject and a TriggerAuthentication, got %v", r.custom)
	}
	spec := so["spec"].(map[string]any)
	if spec["scaleTargetRef"].(map[string]any)["name"] != worker.Name {
		t.Errorf("ScaledObject targets %v, want %s", spec["scaleTargetRef"], worker.Name)
	}
	authName := auth["metadata"].(map[string]any)["name"]
	var lists []string
	for _, tr := range spec["triggers"].([]any) {
		tr := tr.(map[string]any)
		md := tr["metadata"].(map[string]any)
		if tr["type"] != "redis" || md["address"] != "redis:6379" {
			t.Errorf("trigger %v: want type redis at redis:6379", tr)
		}
		if ref, _ := tr["authenticationRef"].(map[string]any); ref["name"] != authName {
			t.Errorf("trigger %v does not use TriggerAuthentication %v", tr, authName)
		}
		lists = append(lists, md["listName"].(string))
	}
	if len(lists) != len(tasks.QueueWeights) {
		t.Fatalf("triggers on %v, want one per queue of %v", lists, tasks.QueueWeights)
	}

	rdb, redisURL := testkit.MustRedis(t)
	opt, err := asynq.ParseRedisURI(redisURL)
	if err != nil {
		t.Fatal(err)
	}
	client := asynq.NewClient(opt)
	defer client.Close()
	ctx := context.Background()
	for q := range tasks.QueueWeights {
		if _, err := client.EnqueueContext(ctx, asynq.NewTask("deploy:probe", nil), asynq.Queue(q)); err != nil {
			t.Fatal(err)
		}
	}
	for _, list := range lists {
		n, err := rdb.LLen(ctx, list).Result()
		if err != nil {
			t.Fatal(err)
		}
		if n != 1 {
			t.Errorf("LLEN %s = %d after enqueueing one task on each queue, want 1: the ScaledObject watches the wrong list", list, n)
		}
	}
}
