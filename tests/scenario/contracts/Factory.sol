// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// @title A contract deployed by another contract (CREATE and CREATE2), found only in call traces.
contract Child {
    address public immutable parent;
    uint256 public immutable seed;

    event Born(address indexed parent, uint256 seed);

    constructor(uint256 seed_) {
        parent = msg.sender;
        seed = seed_;
        emit Born(msg.sender, seed_);
    }
}

contract Factory {
    address[] public children;

    event ChildCreated(address indexed child, bool viaCreate2);

    function create(uint256 seed) external returns (address child) {
        child = address(new Child(seed));
        children.push(child);
        emit ChildCreated(child, false);
    }

    function create2(uint256 seed, bytes32 salt) external returns (address child) {
        child = address(new Child{salt: salt}(seed));
        children.push(child);
        emit ChildCreated(child, true);
    }

    function count() external view returns (uint256) {
        return children.length;
    }
}
