// A small Rust program without std or libc (v0 names, lld's layout,
// rustc's line-0 rows; see testdata/README.md, record.sh rust): a closure, a
// trait object and a function pointer as generic arguments, inlined helpers.
#![no_std]
#![no_main]
use core::panic::PanicInfo;
#[panic_handler]
fn panic(_: &PanicInfo) -> ! { loop {} }
// No libc: the clock and exit by system calls, so that every frame is in
// this binary (its expectations then need no other file).
fn time() -> i64 {
    let r: i64;
    unsafe { core::arch::asm!("syscall", inlateout("rax") 201i64 => r, in("rdi") 0i64, lateout("rcx") _, lateout("r11") _) };
    r
}
fn exit(code: i64) -> ! {
    unsafe { core::arch::asm!("syscall", in("rax") 231i64, in("rdi") code, options(noreturn)) }
}
pub trait Shape { fn area(&self) -> u64; }
pub struct Sq(pub u64);
impl Shape for Sq { fn area(&self) -> u64 { self.0.wrapping_mul(self.0) } }
#[inline(never)]
fn apply<F: Fn(u64) -> u64>(f: F, n: u64) -> u64 { let mut s = 0u64; for i in 0..n { s = s.wrapping_add(f(i)); } s }
#[inline(never)]
fn total<T: ?Sized + Shape>(s: &T, n: u64) -> u64 { let mut t = 0; for _ in 0..n { t = core::hint::black_box(t + s.area()); } t }
#[inline(always)]
fn mix(x: u64) -> u64 { x.rotate_left(7) ^ x.wrapping_mul(0x9e3779b97f4a7c15) }
#[inline(never)]
fn via_ptr<F: Fn(u64) -> u64 + Copy>(f: F, n: u64) -> u64 { let mut s = 0u64; for i in 0..n { s ^= core::hint::black_box(f)(i); } s }
fn hashy(x: u64) -> u64 { mix(mix(x)) }
#[no_mangle]
pub extern "C" fn _start() -> ! {
    exit(run() as i64)
}
#[inline(never)]
fn run() -> i32 {
    let start = time();
    let sq = Sq(3);
    let dynsq: &dyn Shape = &sq;
    let mut acc = 0u64;
    while time() - start < 2 {
        acc = acc.wrapping_add(apply(|x| mix(x) + 1, 200000));
        acc = acc.wrapping_add(total(dynsq, 100000));
        acc = acc.wrapping_add(via_ptr(hashy as fn(u64) -> u64, 100000));
    }
    (acc & 1) as i32
}
