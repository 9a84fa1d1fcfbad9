package tools

import (
	"os"
	"strings"
	"testing"
)

func TestCheckCommandRefuses(t *testing.T) {
	tests := []struct {
		cmd, rule string
	}{
		{"rm -rf /", "rm -rf of the filesystem root"},
		{"rm -fr /", "rm -rf of the filesystem root"},
		{"rm -r -f /", "rm -rf of the filesystem root"},
		{"rm -R /", "rm -rf of the filesystem root"},
		{"rm --recursive --force /", "rm -rf of the filesystem root"},
		{"rm -rf --no-preserve-root /", "rm -rf of the filesystem root"},
		{"rm -rf /*", "rm -rf of the filesystem root"},
		{"rm -rf //", "rm -rf of the filesystem root"},
		{`rm -rf "/"`, "rm -rf of the filesystem root"},
		{"rm -rf -- /", "rm -rf of the filesystem root"},
		{"sudo rm -rf /", "rm -rf of the filesystem root"},
		{"sudo -u root rm -rf /", "rm -rf of the filesystem root"},
		{"/bin/rm -rf /", "rm -rf of the filesystem root"},
		{`\rm -rf /`, "rm -rf of the filesystem root"},
		{"cd /tmp && rm -rf /", "rm -rf of the filesystem root"},
		{"echo hi; rm -rf / # bye", "rm -rf of the filesystem root"},
		{"FOO=1 env BAR=2 nice -n 5 rm -rf /", "rm -rf of the filesystem root"},
		{"timeout 5 rm -rf /", "rm -rf of the filesystem root"},
		{`bash -c "rm -rf /"`, "rm -rf of the filesystem root"},
		{`sh -lc 'sudo rm -rf /*'`, "rm -rf of the filesystem root"},
		{`eval "rm -rf /"`, "rm -rf of the filesystem root"},
		{`echo "$(rm -rf /)"`, "rm -rf of the filesystem root"},
		{"echo `rm -rf /`", "rm -rf of the filesystem root"},
		{"rm -rf ~", "rm -rf of the home directory"},
		{"rm -rf " + mustHome(), "rm -rf of the home directory"},
		{"rm -rf ~/", "rm -rf of the home directory"},
		{"rm -rf ~/*", "rm -rf of the home directory"},
		{"rm -rf $HOME", "rm -rf of the home directory"},
		{`rm -rf "${HOME}/"`, "rm -rf of the home directory"},
		{"mkfs /dev/sda1", "mkfs formats a filesystem"},
		{"sudo mkfs.ext4 /dev/sdb", "mkfs formats a filesystem"},
		{"dd if=/dev/zero of=/dev/sda bs=1M", "dd writing to a device"},
		{"sudo dd of=/dev/nvme0n1 if=image.iso", "dd writing to a device"},
		{":(){ :|:& };:", "a fork bomb"},
		{"bomb() { bomb | bomb & }; bomb", "a fork bomb"},
		{"git push --force", "git push --force"},
		{"git push -f origin main", "git push --force"},
		{"git push -uf origin main", "git push --force"},
		{"git push --force-with-lease origin main", "git push --force"},
		{"git push origin +main", "git push --force"},
		{"git -C repo push --force", "git push --force"},
		{"chmod -R 777 /", "recursive chmod or chown of the filesystem root"},
		{"sudo chown -R nobody /", "recursive chmod or chown of the filesystem root"},
		{"echo x > /dev/sda", "writing to a disk device"},
		{"cat image >/dev/nvme0n1", "writing to a disk device"},
		{"shutdown -h now", "shutdown or reboot of the machine"},
		{"sudo reboot", "shutdown or reboot of the machine"},
		{"systemctl poweroff", "shutdown or reboot of the machine"},
		{"init 0", "shutdown or reboot of the machine"},
	}
	for _, tc := range tests {
		t.Run(tc.cmd, func(t *testing.T) {
			err := CheckCommand(tc.cmd)
			if err == nil {
				t.Fatalf("CheckCommand(%q) allowed it", tc.cmd)
			}
			want := "refused by baton's safety rules: " + tc.rule
			if !strings.HasPrefix(err.Error(), want) {
				t.Fatalf("CheckCommand(%q) = %q, want %q", tc.cmd, err, want)
			}
		})
	}
}

func TestCheckCommandAllows(t *testing.T) {
	for _, cmd := range []string{
		"rm -rf ./build",
		"rm -rf build/ dist/",
		"rm -rf /tmp/baton-test",
		"rm -rf ~/project/build",
		"rm -rf $HOME/.cache/go-build",
		"rm /",
		"rm -f /tmp/x",
		"chmod 777 /",
		"chmod -r file.txt",
		"chmod -R 755 ./bin",
		"dd if=a of=b",
		"dd if=/dev/zero of=/dev/null count=1",
		"dd if=/dev/sda of=disk.img",
		"git push",
		"git push origin main",
		"git push -u origin feature",
		"git commit -m 'force push later: git push --force'",
		"git fetch --force",
		`echo "rm -rf /"`,
		"echo 'shutdown tonight'",
		"grep -r mkfs .",
		"go test ./... 2>&1 | tail -n 20",
		"ls > /dev/null",
		"echo hi >/dev/stderr",
		"f() { echo hi; }; f",
		"make build && ./bin/baton --help",
		"find . -name '*.go' -exec gofmt -l {} +",
		"echo ${HOME}",
	} {
		if err := CheckCommand(cmd); err != nil {
			t.Errorf("CheckCommand(%q) = %v, want allowed", cmd, err)
		}
	}
}

// mustHome is the home directory the blocklist compares against.
func mustHome() string {
	dir, err := os.UserHomeDir()
	if err != nil {
		return "/root"
	}
	return dir
}
