package main

import (
	"fmt"
	"os"
	"os/exec"
	"time"
)

// The container case places one reading child in a container of a warm
// local image through the engine at DOCKER_HOST (.ci/run starts Podman's
// API service and imports baton-test:latest; BATON_PERF_IMAGE names
// another image) and sets its start, from the parent's fan-out to the
// child's first request, beside the engine's own `podman run --rm IMAGE
// true` on the same image.

// containerImage is the image the container case runs in.
func containerImage() string {
	if image := os.Getenv("BATON_PERF_IMAGE"); image != "" {
		return image
	}
	return "baton-test:latest"
}

// containerCase is the case, skipped with the reason when there is no
// engine to run it on.
func containerCase() perfCase {
	host := os.Getenv("DOCKER_HOST")
	config := fmt.Sprintf("\n[subagents]\nrunner = \"container\"\n[runner.container]\nimage = %q\nhost = %q\n", containerImage(), host)
	return perfCase{name: "container-child-start", script: script{words: 20, children: 1}, args: []string{"--yolo", "-p", "split"},
		config: config, extraName: "child start", baseline: podmanRun, baselineName: "podman run",
		skip: func() string {
			if host == "" {
				return "no container engine: set DOCKER_HOST (and BATON_PERF_IMAGE, default baton-test:latest; .ci/run does)"
			}
			if _, err := exec.LookPath("podman"); err != nil {
				return "podman not found for the baseline"
			}
			return ""
		},
		targets: []target{{"start/podman run", 1.3, "×", func(m summary) float64 { return m.extra.Seconds() / m.baseline.Seconds() }}}}
}

// podmanRun is one `podman run --rm IMAGE true` through the same engine,
// with the container runner's network and limits.
func podmanRun() (time.Duration, error) {
	cmd := exec.Command("podman", "--url", os.Getenv("DOCKER_HOST"), "run", "--rm", "--network", "none",
		"--ulimit", "nofile=4096:4096", "--ulimit", "nproc=4096:4096", containerImage(), "true")
	start := time.Now()
	if out, err := cmd.CombinedOutput(); err != nil {
		return 0, fmt.Errorf("podman run: %v: %s", err, out)
	}
	return time.Since(start), nil
}
