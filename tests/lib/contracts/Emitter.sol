// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// Emits logs of every shape eth_getLogs filters on: 4 topics, 2 topics, 1 topic and none.
/// Used by the JSON-RPC proxy tests (never by the scenario).
contract Emitter {
    event Ping(uint256 indexed n, address indexed from, bytes32 indexed tag, bytes data);
    event Pong(uint256 indexed n, uint256 value);
    event Note(string text);
    event Bare() anonymous;

    function emitMany(uint256 count, bytes32 tag) external {
        for (uint256 i = 0; i < count; i++) {
            emit Ping(i, msg.sender, tag, abi.encode(i));
            emit Pong(i, count);
        }
        emit Bare();
        emit Note("done");
    }
}
