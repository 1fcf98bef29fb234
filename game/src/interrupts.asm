; Interrupts: IM 2 with a 257-byte vector table, so whatever byte the data bus
; holds during the acknowledge, the CPU jumps to IM2_JUMP, which jumps to isr.
; The ULA interrupts 50 times per second (one emulated frame); isr counts the
; frame, scans the keyboard (and the Kempston port when chosen) and runs the
; level timer.

STACK_BOTTOM    EQU 0xFC00
STACK_TOP       EQU 0xFD00
IM2_JUMP        EQU 0xFDFD
IM2_TABLE       EQU 0xFE00

init_interrupts:
        ld hl, IM2_TABLE
        ld de, IM2_TABLE + 1
        ld bc, 256
        ld (hl), IM2_JUMP / 256
        ldir
        ld a, 0xC3                      ; JP nn
        ld (IM2_JUMP), a
        ld hl, isr
        ld (IM2_JUMP + 1), hl
        ld a, IM2_TABLE / 256
        ld i, a
        im 2
        ei
        ret

isr:
        push af
        push bc
        push de
        push hl
        ld hl, (frame_count)
        inc hl
        ld (frame_count), hl
        call scan_keyboard
        call scan_kempston
        call tick_timer
        pop hl
        pop de
        pop bc
        pop af
        ei
        reti

; Wait for the next frame (the interrupt wakes the HALT).
wait_frame:
        halt
        ret

; Level timer: while timer_on, every T_FRAMES_PER_SECOND frames time_left
; goes down by one (not below 0) and time_dirty is set for the main loop.
tick_timer:
        ld a, (timer_on)
        or a
        ret z
        ld hl, timer_ticks
        dec (hl)
        ret nz
        ld (hl), T_FRAMES_PER_SECOND
        ld hl, time_left
        ld a, (hl)
        or a
        ret z
        dec (hl)
        ld a, 1
        ld (time_dirty), a
        ret

; Start the level timer at A seconds.
start_timer:
        di
        ld (time_left), a
        ld a, T_FRAMES_PER_SECOND
        ld (timer_ticks), a
        ld a, 1
        ld (time_dirty), a
        ld (timer_on), a
        ei
        ret

stop_timer:
        xor a
        ld (timer_on), a
        ret
