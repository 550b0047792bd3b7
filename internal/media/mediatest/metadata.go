package mediatest

import (
	"bytes"
	"encoding/binary"
	"fmt"
)

// Metadata lists the metadata blocks of a stored JPEG or PNG file (JPEG
// APPn and COM segments; PNG ancillary text, EXIF and time chunks) and any
// of Secrets found anywhere in it. A clean file lists nothing.
func Metadata(data []byte) []string {
	var found []string
	for _, s := range Secrets {
		if bytes.Contains(data, []byte(s)) {
			found = append(found, "secret "+s)
		}
	}
	switch {
	case bytes.HasPrefix(data, []byte{0xFF, 0xD8}):
		found = append(found, jpegSegments(data)...)
	case bytes.HasPrefix(data, []byte("\x89PNG")):
		found = append(found, pngChunks(data)...)
	default:
		found = append(found, "neither JPEG nor PNG")
	}
	return found
}

func jpegSegments(data []byte) []string {
	var found []string
	for i := 2; i+4 <= len(data); {
		if data[i] != 0xFF {
			return append(found, fmt.Sprintf("garbage at %d", i))
		}
		m := data[i+1]
		if m == 0xDA { // start of scan: the rest is entropy-coded data
			return found
		}
		n := int(binary.BigEndian.Uint16(data[i+2:]))
		if (m >= 0xE0 && m <= 0xEF) || m == 0xFE {
			found = append(found, fmt.Sprintf("JPEG segment FF%02X", m))
		}
		i += 2 + n
	}
	return found
}

func pngChunks(data []byte) []string {
	var found []string
	for i := 8; i+8 <= len(data); {
		n := int(binary.BigEndian.Uint32(data[i:]))
		typ := string(data[i+4 : i+8])
		switch typ {
		case "tEXt", "iTXt", "zTXt", "eXIf", "tIME", "iCCP":
			found = append(found, "PNG chunk "+typ)
		}
		if typ == "IEND" {
			if rest := len(data) - (i + 12 + n); rest > 0 {
				found = append(found, fmt.Sprintf("%d bytes after IEND", rest))
			}
			return found
		}
		i += 12 + n
	}
	return found
}
