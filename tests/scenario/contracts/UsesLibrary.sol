// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// @title A contract linked against an external library (its bytecode holds the library's address).
library MathLib {
    function mulAdd(uint256 a, uint256 b, uint256 c) external pure returns (uint256) {
        return a * b + c;
    }
}

contract UsesLibrary {
    uint256 public last;

    event Computed(uint256 result);

    function compute(uint256 a, uint256 b, uint256 c) external returns (uint256) {
        last = MathLib.mulAdd(a, b, c);
        emit Computed(last);
        return last;
    }
}
