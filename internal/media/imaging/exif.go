package imaging

import "encoding/binary"

// jpegOrientation returns the EXIF orientation tag (0x0112) of a JPEG's
// APP1 Exif segment, or 1 when there is none or it cannot be read. Only the
// segments before the first scan are walked; every offset is checked
// against the data, so a hostile file can at worst yield 1.
func jpegOrientation(data []byte) int {
	for i := 2; i+4 <= len(data); {
		if data[i] != 0xFF {
			return 1
		}
		marker := data[i+1]
		if marker == 0xFF { // fill byte
			i++
			continue
		}
		if marker == 0xD9 || marker == 0xDA { // end of image, start of scan
			return 1
		}
		if marker >= 0xD0 && marker <= 0xD7 || marker == 0x01 {
			i += 2
			continue
		}
		n := int(binary.BigEndian.Uint16(data[i+2:]))
		if n < 2 || i+2+n > len(data) {
			return 1
		}
		seg := data[i+4 : i+2+n]
		if marker == 0xE1 && len(seg) > 6 && string(seg[:6]) == "Exif\x00\x00" {
			return tiffOrientation(seg[6:])
		}
		i += 2 + n
	}
	return 1
}

// tiffOrientation reads the orientation entry of IFD0 of a TIFF structure.
func tiffOrientation(t []byte) int {
	if len(t) < 8 {
		return 1
	}
	var bo binary.ByteOrder
	switch string(t[:2]) {
	case "II":
		bo = binary.LittleEndian
	case "MM":
		bo = binary.BigEndian
	default:
		return 1
	}
	off := int(bo.Uint32(t[4:]))
	if off < 8 || off+2 > len(t) {
		return 1
	}
	count := int(bo.Uint16(t[off:]))
	for e := 0; e < count; e++ {
		at := off + 2 + 12*e
		if at+12 > len(t) {
			return 1
		}
		if bo.Uint16(t[at:]) != 0x0112 {
			continue
		}
		// SHORT, one value, stored in the first two bytes of the value field.
		if v := int(bo.Uint16(t[at+8:])); bo.Uint16(t[at+2:]) == 3 && v >= 1 && v <= 8 {
			return v
		}
		return 1
	}
	return 1
}
