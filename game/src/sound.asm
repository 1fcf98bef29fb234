; Beeper sounds (only with the sound on). Interrupts stay enabled, so the
; frame count and the timer are not disturbed.

; D = half period (in 13 T-state steps), E = number of half periods.
tone:
        ld a, (sound_on)
        or a
        ret z
        ld a, BORDER
_half:
        xor 0x10
        out (0xFE), a
        ld b, d
_delay:
        djnz _delay
        dec e
        jr nz, _half
        ld a, BORDER
        out (0xFE), a
        ret

sound_place:
        ld de, 0x4020
        jr tone

sound_take_back:
        ld de, 0x6018
        jr tone

sound_well_done:
        ld de, 0x5030
        call tone
        ld de, 0x3C40
        call tone
        ld de, 0x2850
        jr tone

sound_time_up:
        ld de, 0xC020
        call tone
        ld de, 0xF020
        jr tone
