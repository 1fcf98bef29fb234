; Keyboard: read by the interrupt every KEY_POLL_FRAMES frames (keyreading.asm,
; generated from the build's --key-reading), by edge. A key down at a read that
; was up at the read before puts one code in a 16-entry queue, however long it
; is held, so one press is one move; a press between two reads is not seen.
; With KEY_REPEAT_EVERY, a key still held KEY_REPEAT_DELAY frames after it went
; down is queued again, then every KEY_REPEAT_EVERY frames. The main program
; takes codes out with read_char.
;
; Key numbers: half-row h (port 0xFEFE, 0xFDFE, ..., 0x7FFE) times 5, plus
; the bit (0 = outermost key). 40..44 are the Kempston joystick's right,
; left, down, up and fire; 45 is DELETE (CAPS SHIFT held when 0 goes down).

KEY_ZERO        EQU 20                  ; key number of "0"
KEY_DELETE      EQU 45
KEY_QUEUE_SIZE  EQU 16                  ; a power of two

; Characters read_char returns besides letters, digits and space.
CH_ENTER        EQU 13
CH_DELETE       EQU 8
CH_NONE         EQU 0                   ; CAPS SHIFT, SYMBOL SHIFT
CH_UP           EQU 0x80                ; joystick directions and fire
CH_DOWN         EQU 0x81
CH_LEFT         EQU 0x82
CH_RIGHT        EQU 0x83
CH_FIRE         EQU 0x84

key_chars:
        DEFB CH_NONE, "ZXCV"            ; 0xFEFE: CAPS SHIFT Z X C V
        DEFB "ASDFG"                    ; 0xFDFE
        DEFB "QWERT"                    ; 0xFBFE
        DEFB "12345"                    ; 0xF7FE
        DEFB "09876"                    ; 0xEFFE
        DEFB "POIUY"                    ; 0xDFFE
        DEFB CH_ENTER, "LKJH"           ; 0xBFFE
        DEFB " ", CH_NONE, "MNB"        ; 0x7FFE: SPACE SYMBOL-SHIFT M N B
        DEFB CH_RIGHT, CH_LEFT, CH_DOWN, CH_UP, CH_FIRE
        DEFB CH_DELETE

; The build's key reading, where --describe finds it: mode, poll, delay, every.
key_reading:
        DEFB "LOGO-KEY-READING"
        DEFB KEY_READING_MODE, KEY_POLL_FRAMES, KEY_REPEAT_DELAY, KEY_REPEAT_EVERY

; Called by isr: on a reading frame, read the 8 half-rows and queue every key
; that went down since the last read.
scan_keyboard:
        ld a, (poll_wait)
        or a
        jr z, _read
        dec a
        ld (poll_wait), a
        ret
_read:
        ld a, KEY_POLL_FRAMES - 1
        ld (poll_wait), a
        call read_half_rows
        IF KEY_REPEAT_EVERY
        call repeat_held_key
        ENDIF
        ret

read_half_rows:
        ld hl, key_state
        ld e, 0                         ; key number of bit 0 of this half-row
        ld d, 0xFE                      ; half-row select (high byte of the port)
_row:
        ld b, d
        ld c, 0xFE
        in a, (c)
        cpl
        and 0x1F                        ; bit set = key down
        ld c, a
        xor (hl)
        and c                           ; down now, not down last frame
        ld (hl), c
        inc hl
        ld c, a
        ld b, e
_bit:
        srl c
        jr nc, _next_bit
        ld a, b
        cp KEY_ZERO
        jr nz, _queue
        ld a, (key_state)               ; CAPS SHIFT is bit 0 of half-row 0
        rrca
        ld a, KEY_ZERO
        jr nc, _queue
        ld a, KEY_DELETE
_queue:
        IF KEY_REPEAT_EVERY
        ld (repeat_key), a              ; the newest key is the one that repeats
        push af
        ld a, KEY_REPEAT_DELAY + KEY_POLL_FRAMES ; this read counts its frames off too
        ld (repeat_wait), a
        pop af
        ENDIF
        call queue_key
_next_bit:
        inc b
        ld a, c
        or a
        jr nz, _bit
        ld a, e
        add a, 5
        ld e, a
        rlc d                           ; next half-row; carry clear after 0x7F
        jr c, _row
        ret

        IF KEY_REPEAT_EVERY
; After a read: while repeat_key (1..39; 0 = none) is still down, count its
; frames and queue it again when they run out.
repeat_held_key:
        ld a, (repeat_key)
        or a
        ret z
        cp 40
        ret nc                          ; DELETE and the joystick do not repeat
        ld hl, key_state
        ld c, a
_row_of:
        ld a, c
        cp 5
        jr c, _bit_of
        sub 5
        ld c, a
        inc hl
        jr _row_of
_bit_of:
        ld b, c
        inc b
        ld a, 1
_shift:
        dec b
        jr z, _held
        add a, a
        jr _shift
_held:
        and (hl)
        jr z, _let_go
        ld a, (repeat_wait)
        sub KEY_POLL_FRAMES
        jr z, _again
        jr c, _again
        ld (repeat_wait), a
        ret
_again:
        ld a, KEY_REPEAT_EVERY
        ld (repeat_wait), a
        ld a, (repeat_key)
        jp queue_key
_let_go:
        xor a
        ld (repeat_key), a
        ret
        ENDIF

; Called by isr: with the Kempston joystick chosen, queue its new presses.
; A port that reads with any of bits 5-7 set has no Kempston interface.
scan_kempston:
        ld a, (control)
        cp CONTROL_KEMPSTON
        ret nz
        in a, (0x1F)
        ld c, a
        and 0xE0
        ret nz
        ld a, c
        and 0x1F
        ld c, a
        ld hl, kempston_state
        xor (hl)
        and c
        ld (hl), c
        ld c, a
        ld b, 40
_kbit:
        srl c
        ld a, b
        call c, queue_key
        inc b
        ld a, c
        or a
        jr nz, _kbit
        ret

; Put key number A in the queue (dropped when the queue is full).
; Keeps BC, DE, HL.
queue_key:
        push hl
        push de
        ld e, a
        ld a, (key_tail)
        ld l, a
        inc a
        and KEY_QUEUE_SIZE - 1
        ld d, a
        ld a, (key_head)
        cp d
        jr z, _full
        ld a, d
        ld (key_tail), a
        ld h, 0
        ld a, e
        ld de, key_queue
        add hl, de
        ld (hl), a
_full:
        pop de
        pop hl
        ret

; Take the next key number from the queue: carry set when it is empty,
; else carry clear and A = key number. Keeps BC.
next_key:
        ld a, (key_tail)
        ld hl, key_head
        cp (hl)
        scf
        ret z
        ld a, (hl)
        ld e, a
        inc a
        and KEY_QUEUE_SIZE - 1
        ld (hl), a
        ld d, 0
        ld hl, key_queue
        add hl, de
        ld a, (hl)
        or a
        ret

; Take the next key as a character (see key_chars): carry set when none.
; Keeps BC.
read_char:
        call next_key
        ret c
        ld e, a
        ld d, 0
        ld hl, key_chars
        add hl, de
        ld a, (hl)
        or a                            ; clear carry
        ret

; Forget every key pressed so far.
flush_keys:
        ld a, (key_tail)
        ld (key_head), a
        ret
