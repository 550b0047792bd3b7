// Package deploy holds no code: its tests check the deployment files against
// the service they deploy. The Helm chart (helm/shop) is rendered with Helm
// and decoded strictly into Kubernetes' own types; docker-compose.yml is
// loaded with the Compose specification's loader; both are compared with the
// variables internal/config reads, the probes the api serves, the asynq
// queues the worker drains and the user the Containerfile runs as.
// docs/DECISIONS.md ("Deployment") explains the choices.
package deploy
