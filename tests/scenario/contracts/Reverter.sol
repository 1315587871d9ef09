// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// @title Calls that fail on purpose: a reverted EVM transaction (receipt status 0).
contract Reverter {
    uint256 public counter;

    error Nope(uint256 code);

    function ok() external {
        counter += 1;
    }

    function failWithReason() external {
        counter += 1;
        revert("reverted on purpose");
    }

    function failWithError(uint256 code) external {
        counter += code;
        revert Nope(code);
    }
}
