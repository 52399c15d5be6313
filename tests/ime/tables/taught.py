"""What the typist of these tests taught: two own phrases, a learned choice, a pin."""

PHRASES = [("ijjj", "小明"), ("gtli", "五笔输入法")]
LEARNED = [("fcu", "支")] * 3  # fcu: 去 then 支 in the table
PINS = [("aaaa", "恭恭敬敬", 0)]
