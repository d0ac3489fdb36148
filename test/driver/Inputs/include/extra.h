#pragma once
inline int extra() { return 5; }
