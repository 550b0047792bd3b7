package deploy

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/gocommerce/shop/internal/config"
	"gopkg.in/yaml.v3"
	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
)

const (
	chartDir   = "helm/shop"
	testValues = "helm/shop/ci/test-values.yaml"
	// kubeVersion is the oldest Kubernetes the chart supports (Chart.yaml);
	// a Helm built with `go install` otherwise assumes 1.20.
	kubeVersion = "1.30.0"
)

// helm returns the Helm binary: $HELM, else the one `make chart` or `make
// test` built into bin/. Without one the chart tests skip, except in CI.
func helm(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("HELM"); p != "" {
		return p
	}
	if m, _ := filepath.Glob("../bin/helm-*/helm"); len(m) > 0 {
		return m[len(m)-1]
	}
	if os.Getenv("CI") != "" {
		t.Fatal("helm not found: `make test` builds it into bin/helm-<version>/helm; or set HELM")
	}
	t.Skip("helm not found: `make chart` builds it into bin/ from the Go module proxy; or set HELM")
	return ""
}

// rendered is the output of `helm template`, every object decoded strictly
// into its Kubernetes type (an unknown field fails the decoding).
type rendered struct {
	deployments map[string]*appsv1.Deployment // by component label
	jobs        []*batchv1.Job
	configMaps  map[string]*corev1.ConfigMap
	secrets     map[string]*corev1.Secret
	services    []*corev1.Service
	hpas        []*autoscalingv2.HorizontalPodAutoscaler
	pdbs        []*policyv1.PodDisruptionBudget
	// custom holds the objects of other APIs (KEDA's), as plain maps.
	custom []map[string]any
}

// render runs `helm template` with the test values and then each of extra
// (values as Go maps, later ones winning), and decodes the result.
func render(t *testing.T, extra ...map[string]any) *rendered {
	t.Helper()
	out, err := renderErr(t, extra...)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func renderErr(t *testing.T, extra ...map[string]any) (*rendered, error) {
	t.Helper()
	args := []string{"template", "shop", chartDir, "--namespace", "shop", "--kube-version", kubeVersion, "-f", testValues}
	for i, v := range extra {
		b, err := yaml.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		f := filepath.Join(t.TempDir(), "values"+strconv.Itoa(i)+".yaml")
		if err := os.WriteFile(f, b, 0o600); err != nil {
			t.Fatal(err)
		}
		args = append(args, "-f", f)
	}
	return runTemplate(t, args)
}

func runTemplate(t *testing.T, args []string) (*rendered, error) {
	t.Helper()
	cmd := exec.Command(helm(t), args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, errors.New("helm template: " + strings.TrimSpace(stderr.String()))
	}
	return decode(t, stdout.Bytes()), nil
}

func decode(t *testing.T, manifest []byte) *rendered {
	t.Helper()
	r := &rendered{deployments: map[string]*appsv1.Deployment{}, configMaps: map[string]*corev1.ConfigMap{}, secrets: map[string]*corev1.Secret{}}
	dec := yaml.NewDecoder(bytes.NewReader(manifest))
	for {
		var doc map[string]any
		err := dec.Decode(&doc)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("rendered chart is not YAML: %v", err)
		}
		if doc == nil {
			continue
		}
		raw, err := json.Marshal(doc)
		if err != nil {
			t.Fatal(err)
		}
		kind, _ := doc["kind"].(string)
		strict := func(into any) {
			d := json.NewDecoder(bytes.NewReader(raw))
			d.DisallowUnknownFields()
			if err := d.Decode(into); err != nil {
				t.Fatalf("rendered %s is not a valid %s: %v\n%s", kind, reflect.TypeOf(into).Elem(), err, raw)
			}
		}
		switch kind {
		case "Deployment":
			o := new(appsv1.Deployment)
			strict(o)
			r.deployments[o.Labels["app.kubernetes.io/component"]] = o
		case "Job":
			o := new(batchv1.Job)
			strict(o)
			r.jobs = append(r.jobs, o)
		case "ConfigMap":
			o := new(corev1.ConfigMap)
			strict(o)
			r.configMaps[o.Name] = o
		case "Secret":
			o := new(corev1.Secret)
			strict(o)
			r.secrets[o.Name] = o
		case "Service":
			o := new(corev1.Service)
			strict(o)
			r.services = append(r.services, o)
		case "HorizontalPodAutoscaler":
			o := new(autoscalingv2.HorizontalPodAutoscaler)
			strict(o)
			r.hpas = append(r.hpas, o)
		case "PodDisruptionBudget":
			o := new(policyv1.PodDisruptionBudget)
			strict(o)
			r.pdbs = append(r.pdbs, o)
		case "ServiceAccount":
			strict(new(corev1.ServiceAccount))
		case "ScaledObject", "TriggerAuthentication":
			r.custom = append(r.custom, doc)
		default:
			t.Fatalf("the chart renders a %s, which these tests do not check", kind)
		}
	}
	return r
}

// deployment returns the Deployment of one component, failing without it.
func (r *rendered) deployment(t *testing.T, component string) *appsv1.Deployment {
	t.Helper()
	d, ok := r.deployments[component]
	if !ok {
		t.Fatalf("no %s Deployment rendered", component)
	}
	return d
}

// migrationJob returns the one Job, the migration.
func (r *rendered) migrationJob(t *testing.T) *batchv1.Job {
	t.Helper()
	if len(r.jobs) != 1 {
		t.Fatalf("%d Jobs rendered, want the migration's alone", len(r.jobs))
	}
	return r.jobs[0]
}

// podSpecs returns every pod template the chart runs, by component.
func (r *rendered) podSpecs(t *testing.T) map[string]*corev1.PodSpec {
	t.Helper()
	out := map[string]*corev1.PodSpec{}
	for c, d := range r.deployments {
		out[c] = &d.Spec.Template.Spec
	}
	for _, j := range r.jobs {
		out["job "+j.Name] = &j.Spec.Template.Spec
	}
	return out
}

// env resolves the variables a container sees: its envFrom ConfigMaps and
// Secrets (when rendered by the chart), then its own env entries. Missing
// references are returned, by name, in missing.
func (r *rendered) env(c corev1.Container) (vars map[string]string, missing []string) {
	vars = map[string]string{}
	for _, from := range c.EnvFrom {
		switch {
		case from.ConfigMapRef != nil:
			cm, ok := r.configMaps[from.ConfigMapRef.Name]
			if !ok {
				missing = append(missing, "ConfigMap "+from.ConfigMapRef.Name)
				continue
			}
			for k, v := range cm.Data {
				vars[k] = v
			}
		case from.SecretRef != nil:
			s, ok := r.secrets[from.SecretRef.Name]
			if !ok {
				missing = append(missing, "Secret "+from.SecretRef.Name)
				continue
			}
			for k, v := range s.StringData {
				vars[k] = v
			}
		}
	}
	for _, e := range c.Env {
		vars[e.Name] = e.Value
	}
	return vars, missing
}

// configVars lists the environment variables internal/config reads, from
// the env tags of config.Config.
func configVars(t *testing.T) []string {
	t.Helper()
	var names []string
	var walk func(reflect.Type, string)
	walk = func(typ reflect.Type, prefix string) {
		for i := 0; i < typ.NumField(); i++ {
			f := typ.Field(i)
			if f.Type.Kind() == reflect.Struct && f.Tag.Get("env") == "" {
				walk(f.Type, prefix+f.Tag.Get("envPrefix"))
				continue
			}
			if name, _, _ := strings.Cut(f.Tag.Get("env"), ","); name != "" {
				names = append(names, prefix+name)
			}
		}
	}
	walk(reflect.TypeOf(config.Config{}), "")
	if len(names) < 10 {
		t.Fatalf("found only %d variables in config.Config: has the way they are declared changed?", len(names))
	}
	return names
}

// reservedVars are the variables the chart sets from values of its own,
// because it needs them too: each maps to the value that sets it.
var reservedVars = map[string]string{"PORT": "api.port", "SHUTDOWN_TIMEOUT": "shutdownTimeoutSeconds"}

// chartValues reads the chart's values.yaml.
func chartValues(t *testing.T) (config, secrets map[string]any) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(chartDir, "values.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		Config  map[string]any `yaml:"config"`
		Secrets map[string]any `yaml:"secrets"`
	}
	if err := yaml.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	return v.Config, v.Secrets
}

// imageUser returns the numeric user and group of the Containerfile's USER.
func imageUser(t *testing.T) (uid, gid int64) {
	t.Helper()
	f, err := os.Open("../Containerfile")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	re := regexp.MustCompile(`^USER\s+(\d+):(\d+)\s*$`)
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if m := re.FindStringSubmatch(sc.Text()); m != nil {
			uid, _ = strconv.ParseInt(m[1], 10, 64)
			gid, _ = strconv.ParseInt(m[2], 10, 64)
			return uid, gid
		}
	}
	t.Fatal("Containerfile has no numeric USER uid:gid line")
	return 0, 0
}

// ptrString prints a replica count that may be unset.
func ptrString(n *int32) string {
	if n == nil {
		return "unset"
	}
	return strconv.Itoa(int(*n))
}
