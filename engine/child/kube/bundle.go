package kube

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// MaxBundle bounds a workspace bundle: the kubernetes runner sends it to
// the cluster in parts of PartSize, and refuses one larger than this.
const MaxBundle = 64 << 20

// PartSize bounds one part of the workspace bundle: a ConfigMap holds
// at most 1 MiB, its keys and metadata included.
const PartSize = 900 << 10

// SplitBundle cuts bundle into the parts the cluster is sent, in order,
// each at most PartSize; an empty bundle is one empty part.
func SplitBundle(bundle []byte) [][]byte {
	parts := make([][]byte, 0, len(bundle)/PartSize+1)
	for len(bundle) > PartSize {
		parts = append(parts, bundle[:PartSize])
		bundle = bundle[PartSize:]
	}
	return append(parts, bundle)
}

// BundleDigest is what the pod checks the joined parts of the workspace
// bundle against before it uses them. It travels in the Secret with the
// spec, not with the parts: whoever can change a ConfigMap cannot make
// its bytes pass.
type BundleDigest struct {
	Size   int64  `json:"size"`
	Parts  int    `json:"parts"`
	SHA256 string `json:"sha256"`
}

// DigestOf is bundle's digest.
func DigestOf(bundle []byte) BundleDigest {
	sum := sha256.Sum256(bundle)
	return BundleDigest{Size: int64(len(bundle)), Parts: len(SplitBundle(bundle)), SHA256: hex.EncodeToString(sum[:])}
}

// Marshal is d as the Secret holds it.
func (d BundleDigest) Marshal() []byte {
	data, _ := json.Marshal(d) // a BundleDigest always marshals
	return data
}

// joinBundle writes the parts in the files of list (separated as in
// PATH) one after the other into a file in dir, and returns its path
// once the whole matches the digest in the file digestFile names;
// otherwise nothing is left behind.
func joinBundle(list, digestFile, dir string) (string, error) {
	raw, err := os.ReadFile(digestFile)
	if err != nil {
		return "", fmt.Errorf("read the workspace bundle's digest: %w", err)
	}
	var want BundleDigest
	if err := json.Unmarshal(raw, &want); err != nil {
		return "", fmt.Errorf("read the workspace bundle's digest: %w", err)
	}
	if want.Size < 0 || want.Size > MaxBundle {
		return "", fmt.Errorf("the workspace bundle's digest gives %d bytes, more than %d MiB", want.Size, MaxBundle>>20)
	}
	parts := filepath.SplitList(list)
	if len(parts) != want.Parts {
		return "", fmt.Errorf("the workspace bundle comes in %d parts, its digest says %d", len(parts), want.Parts)
	}
	out, err := os.CreateTemp(dir, "baton-workspace-*.bundle")
	if err != nil {
		return "", fmt.Errorf("join the workspace bundle: %w", err)
	}
	name := out.Name()
	sum := sha256.New()
	err = copyParts(io.MultiWriter(out, sum), parts, want.Size)
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	if err == nil && hex.EncodeToString(sum.Sum(nil)) != want.SHA256 {
		err = fmt.Errorf("the workspace bundle's parts do not match the digest baton sent (sha256 %s): a part was changed", want.SHA256)
	}
	if err != nil {
		os.Remove(name)
		return "", err
	}
	return name, nil
}

// copyParts copies the files parts to w, refusing more than size bytes
// in all, or fewer.
func copyParts(w io.Writer, parts []string, size int64) error {
	var total int64
	for i, path := range parts {
		f, err := os.Open(path)
		if err != nil {
			return fmt.Errorf("read part %d of the workspace bundle: %w", i, err)
		}
		n, err := io.Copy(w, io.LimitReader(f, size-total+1))
		f.Close()
		if err != nil {
			return fmt.Errorf("read part %d of the workspace bundle: %w", i, err)
		}
		if total += n; total > size {
			return fmt.Errorf("the workspace bundle's parts hold more than the %d bytes its digest gives", size)
		}
	}
	if total != size {
		return fmt.Errorf("the workspace bundle's parts hold %d bytes, its digest gives %d", total, size)
	}
	return nil
}

// BundleParts is the value of EnvBundleParts for these part files, in
// order.
func BundleParts(paths []string) string {
	return strings.Join(paths, string(filepath.ListSeparator))
}
