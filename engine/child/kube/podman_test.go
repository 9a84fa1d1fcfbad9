package kube_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/seed-e4e525a6/baton/engine/child/kube"
	"github.com/seed-e4e525a6/baton/engine/child/kube/cluster"
)

// The pod template is run for real by `podman kube play`: these tests
// place children through the kubernetes runner whose baton-kube is this
// test binary (BATON_TEST_PODMAN_BRIDGE), which hands the very Secret,
// ConfigMap and Job pod template baton-kube sends a cluster to local
// Podman instead. What differs from a cluster is said where it is done:
// the pod shares the host's network (the scripted endpoint listens on
// loopback), its Secret is given to Podman as stringData (Podman 4 does
// not decode data), and, since kube play attaches no input to a pod,
// baton's answers reach it through a FIFO (kube.EnvInput) instead of
// the attached stdin.

// podmanBridgeEnv makes this test binary a baton-kube that plays pods
// with Podman.
const podmanBridgeEnv = "BATON_TEST_PODMAN_BRIDGE"

// podman runs rootful Podman as this machine allows (runc, cgroupfs).
func podman(args ...string) *exec.Cmd {
	cmd := exec.Command("podman", append([]string{"--runtime", "runc", "--cgroup-manager", "cgroupfs"}, args...)...)
	cmd.Env = append(os.Environ(), "CONTAINERS_CONF="+os.Getenv("BATON_TEST_CONTAINERS_CONF"))
	return cmd
}

// podmanBridge is baton-kube placing the child with podman kube play.
func podmanBridge(args []string) int {
	if err := playPod(args); err != nil {
		fmt.Fprintf(os.Stderr, "podman bridge: %v\n", err)
		return 1
	}
	return 0
}

func playPod(args []string) error {
	cfg, err := cluster.ParseArgs(args)
	if err != nil {
		return err
	}
	cfg.Namespace = "default"
	in := bufio.NewReader(os.Stdin)
	spec, err := in.ReadBytes('\n')
	if err != nil {
		return fmt.Errorf("read the spec: %w", err)
	}
	job, err := cfg.JobObject()
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "baton-podman-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	fifo := filepath.Join(dir, "input")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		return err
	}
	pod := job.Spec.Template.Spec
	pod.HostNetwork = true
	c := &pod.Containers[0]
	c.Env = append(c.Env, corev1.EnvVar{Name: kube.EnvInput, Value: "/baton/input/input"})
	c.VolumeMounts = append(c.VolumeMounts, corev1.VolumeMount{Name: "input", MountPath: "/baton/input"})
	pod.Volumes = append(pod.Volumes, corev1.Volume{Name: "input", VolumeSource: corev1.VolumeSource{HostPath: &corev1.HostPathVolumeSource{Path: dir}}})
	// Podman 4 gives a Secret's data to the pod as written, undecoded.
	secret := cfg.Secret(spec)
	raw := map[string]string{}
	for k, v := range secret.Data {
		raw[k] = string(v)
	}
	podmanSecret := map[string]any{"apiVersion": "v1", "kind": "Secret", "metadata": map[string]any{"name": secret.Name}, "data": raw}
	var objects []any
	for _, cm := range cfg.ConfigMaps() {
		cm.TypeMeta = metav1.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"}
		objects = append(objects, cm)
	}
	p := &corev1.Pod{TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Pod"},
		ObjectMeta: metav1.ObjectMeta{Name: cfg.Job, Labels: job.Spec.Template.Labels}, Spec: pod}
	secretFile, playFile := filepath.Join(dir, "secret.json"), filepath.Join(dir, "play.yaml")
	if err := writeJSON(secretFile, podmanSecret); err != nil {
		return err
	}
	if err := writeJSON(playFile, append(objects, p)...); err != nil {
		return err
	}
	if out, err := podman("secret", "create", secret.Name, secretFile).CombinedOutput(); err != nil {
		return fmt.Errorf("podman secret create: %v: %s", err, out)
	}
	defer podman("secret", "rm", secret.Name).Run()
	defer podman("kube", "down", playFile).Run()
	if out, err := podman("kube", "play", playFile).CombinedOutput(); err != nil {
		return fmt.Errorf("podman kube play: %v: %s", err, out)
	}
	os.Stdout.Write(kube.MarshalReport(kube.Report{Where: "podman " + cfg.Job, Latency: 1}))
	// Ends when baton's input does, or the pod goes (its FIFO's reader
	// with it: the write fails).
	go func() {
		f, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		defer f.Close()
		_, _ = io.Copy(f, in)
	}()
	name := cfg.Job + "-" + pod.Containers[0].Name
	logs := podman("logs", "-f", name)
	logs.Stdout, logs.Stderr = os.Stdout, os.Stderr
	if err := logs.Run(); err != nil {
		return fmt.Errorf("podman logs: %w", err)
	}
	out, err := podman("wait", name).Output()
	if err != nil {
		return fmt.Errorf("podman wait: %w", err)
	}
	if code := strings.TrimSpace(string(out)); code != "0" {
		return fmt.Errorf("the pod's container exited with status %s", code)
	}
	return nil
}

// writeJSON writes objects as a multi-document YAML file (JSON is YAML).
func writeJSON(path string, objects ...any) error {
	var b bytes.Buffer
	for _, o := range objects {
		data, err := json.Marshal(o)
		if err != nil {
			return err
		}
		b.WriteString("---\n")
		b.Write(data)
		b.WriteByte('\n')
	}
	return os.WriteFile(path, b.Bytes(), 0o600)
}

var (
	imageOnce sync.Once
	imageName string
	imageErr  error
)

// podmanOrSkip returns an image holding a static baton, git and a shell,
// imported from a root filesystem (no registry is reachable), and makes
// this test binary the runner's baton-kube.
func podmanOrSkip(t *testing.T) (image, bridge string) {
	t.Helper()
	_, errP := exec.LookPath("podman")
	_, errR := exec.LookPath("runc")
	_, errG := exec.LookPath("git")
	if err := errors.Join(errP, errR, errG); err != nil || os.Geteuid() != 0 {
		if os.Getenv("BATON_REQUIRE_CONTAINERS") != "" {
			t.Fatalf("BATON_REQUIRE_CONTAINERS is set but rootful podman, runc or git is missing: %v", err)
		}
		t.Skip("podman kube play needs rootful podman, runc and git (.ci/run installs them)")
	}
	imageOnce.Do(func() { imageName, imageErr = buildImage() })
	if imageErr != nil {
		t.Fatalf("build the test image: %v", imageErr)
	}
	conf := filepath.Join(t.TempDir(), "containers.conf")
	// Rootful podman here needs explicit limits to start a container.
	if err := os.WriteFile(conf, []byte("[containers]\ndefault_ulimits = [\"nofile=4096:4096\", \"nproc=4096:4096\"]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("BATON_TEST_CONTAINERS_CONF", conf)
	t.Setenv(podmanBridgeEnv, "1")
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return imageName, exe
}

// buildImage imports a root filesystem of busybox, git with its
// libraries and a static baton.
func buildImage() (string, error) {
	dir, err := os.MkdirTemp("", "baton-kube-image-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(dir)
	root := filepath.Join(dir, "root")
	build := exec.Command("go", "build", "-o", filepath.Join(root, "usr/local/bin/baton"), "github.com/seed-e4e525a6/baton/cmd/baton")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		return "", fmt.Errorf("build a static baton: %v: %s", err, out)
	}
	git, _ := exec.LookPath("git")
	files := []string{git, "/usr/lib/git-core/git"}
	out, err := exec.Command("ldd", git).Output()
	if err != nil {
		return "", fmt.Errorf("ldd git: %w", err)
	}
	for _, f := range strings.Fields(string(out)) {
		if strings.HasPrefix(f, "/") {
			files = append(files, f)
		}
	}
	if busybox, err := exec.LookPath("busybox"); err == nil {
		files = append(files, busybox)
	}
	for _, f := range files {
		if err := copyInto(root, f); err != nil {
			return "", err
		}
	}
	for _, d := range []string{"tmp", "bin"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o1777); err != nil {
			return "", err
		}
	}
	if busybox, err := exec.LookPath("busybox"); err == nil {
		_ = os.Symlink(busybox, filepath.Join(root, "bin/sh"))
	}
	tar := filepath.Join(dir, "root.tar")
	if out, err := exec.Command("tar", "-C", root, "-cf", tar, ".").CombinedOutput(); err != nil {
		return "", fmt.Errorf("tar: %v: %s", err, out)
	}
	// A tag of this run's own: the image is removed as the tests end
	// (TestMain), which must not take another run's from under it.
	image := fmt.Sprintf("localhost/baton-kube-test:run-%d", os.Getpid())
	if out, err := podman("import", "--change", "ENV PATH=/usr/local/bin:/usr/bin:/bin", tar, image).CombinedOutput(); err != nil {
		return "", fmt.Errorf("podman import: %v: %s", err, out)
	}
	return image, nil
}

// copyInto copies the file at path (symbolic links followed) to the same
// path under root.
func copyInto(root, path string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	dst := filepath.Join(root, path)
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	return os.WriteFile(dst, data, 0o755)
}
