// SPDX-License-Identifier: MIT
pragma solidity 0.5.17;

/// @title A contract for an old compiler (0.5.17), for verification with an old solc.
contract Legacy05 {
    string public greeting;
    address public owner;

    event Greeted(address indexed by, string greeting);

    constructor(string memory greeting_) public {
        greeting = greeting_;
        owner = msg.sender;
    }

    function greet(string memory greeting_) public {
        greeting = greeting_;
        emit Greeted(msg.sender, greeting_);
    }
}
